import { HttpError, badRequest } from '../../lib/http.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES, type PaymentRate, type PaymentRates } from '#contract/payments';
import type { PaymentContext } from './deps.ts';
import type { PaymentProvider } from './providers/provider.ts';
import type { ProviderMethod } from './providers/registry.ts';

// The ways to pay as the operator set them (settings 'payments.methods'): fees, limits and conversion.

/** The fee and what the customer pays in the method's currency (minor units), or null without a rate. */
export function convert(priceKopecks: number, rate: PaymentRate, rubPerUnit: number): { fee: number; amount: number | null } {
  const fee = Math.round((priceKopecks * rate.fee) / 100);
  const total = priceKopecks + fee;
  if (rate.currency === 'RUB') return { fee, amount: total };
  if (!(rubPerUnit > 0)) return { fee, amount: null };
  if (rate.currency === 'USDT') return { fee, amount: Math.ceil(total / rubPerUnit - 1e-9) };
  // BTC is shown with 7 decimals (SPEC §9): rounded up to 10 satoshi, so the shown amount is exactly what is due.
  return { fee, amount: Math.ceil((total * 100_000) / rubPerUnit - 1e-9) * 10 };
}

/** Why the price is outside the method's limits, or null. */
export function limitProblem(price: number, rate: Pick<PaymentRate, 'min' | 'max'>): string | null {
  if (price < rate.min) return PAYMENT_MESSAGES.belowMin(formatRubles(rate.min));
  if (price > rate.max) return PAYMENT_MESSAGES.aboveMax(formatRubles(rate.max));
  return null;
}

export function paymentMethods(ctx: Pick<PaymentContext, 'settings'>): Promise<PaymentRates> {
  return ctx.settings.get('payments.methods');
}

/** Roubles per unit of the currency: 1 for RUB, the current rate otherwise (0 without one). */
export async function rubPerUnit(ctx: Pick<PaymentContext, 'rates'>, currency: PaymentRate['currency']): Promise<number> {
  if (currency === 'RUB') return 1;
  const rates = await ctx.rates.get();
  return rates[currency] ?? 0;
}

/** A provider method's rate and provider: 409 when no provider takes the method, 400 when the operator turned it off. */
export async function providerMethod(
  ctx: Pick<PaymentContext, 'settings' | 'providers'>,
  method: ProviderMethod,
): Promise<{ rate: PaymentRate; provider: PaymentProvider }> {
  const provider = ctx.providers.forMethod(method);
  if (!provider) throw new HttpError(409, PAYMENT_MESSAGES.methodUnavailable);
  const rate = (await paymentMethods(ctx))[method];
  if (!rate) throw badRequest(PAYMENT_MESSAGES.methodUnavailable);
  return { rate, provider };
}
