import type { Service } from '#contract/catalog';
import type { PaymentRates } from '#contract/payments';

// The service page's checkout (ADR 042): the package chosen first, the total and the days of a choice, and what
// each way to pay adds to that total.

type PackageKind = Service['packages'][number]['kind'];
type Priced = Pick<Service, 'packages' | 'extras' | 'price' | 'days'>;

/** The package chosen when the form opens: the standard one when there is one, else the first, none without packages. */
export const defaultPackage = (packages: Service['packages']): PackageKind | null =>
  packages.find((p) => p.kind === 'standard')?.kind ?? packages[0]?.kind ?? null;

/** A choice's price and days: its package's (or the service's own without packages) plus its extras'. */
export function checkoutTotals(service: Priced, chosen: PackageKind | null, extras: number[]) {
  const base = service.packages.find((p) => p.kind === chosen) ?? { price: service.price, days: service.days };
  const chosenExtras = extras.flatMap((i) => (service.extras[i] ? [service.extras[i]] : []));
  return {
    total: base.price + chosenExtras.reduce((s, x) => s + x.price, 0),
    days: base.days + chosenExtras.reduce((s, x) => s + x.days, 0),
    chosenExtras,
  };
}

/** The extras ticked, in the service's order, after one is ticked or unticked. */
export function toggleExtra(list: number[], index: number, on: boolean): number[] {
  const others = list.filter((v) => v !== index);
  return on ? [...others, index].sort((a, b) => a - b) : others;
}

/** The ways to pay this total (within each way's limits), each with its fee as the payment page computes it. */
export const paymentWays = (rates: PaymentRates | null | undefined, total: number) =>
  Object.entries(rates ?? {})
    .filter(([, r]) => total >= r.min && total <= r.max)
    .map(([key, r]) => ({ key, title: r.title, percent: r.fee, withFee: total + Math.round((total * r.fee) / 100) }));
