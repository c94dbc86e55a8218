import type { Rates } from '#contract/api';
import type { Currency } from '#contract/constants';
import { formatMoney, ratesReady } from '../../lib/currency.ts';
import { useCurrency } from '../../lib/currency-store.ts';
import { useShell } from '../../lib/use-shell.ts';

/**
 * The text of an amount of kopecks in the visitor's currency (SPEC §9). The rates convert only when they are
 * ready (SPEC §4: both USDT and BTC above 0); otherwise the amount stays in rubles. `prefix` comes first,
 * joined by a no-break space: "от 1 500 руб.", "до 25 000 руб.", "+300 руб.".
 */
export function priceText(kopecks: number, currency: Currency, rates: Rates | null | undefined, prefix?: string): string {
  const money = formatMoney(kopecks, currency, ratesReady(rates) ? rates : null);
  if (!prefix) return money;
  return prefix === '+' ? `+${money}` : `${prefix}\u00a0${money}`;
}

export interface PriceProps {
  /** Integer kopecks. */
  kopecks: number;
  prefix?: 'от' | 'до' | '+';
  className?: string;
}

/** An amount in the selected currency; server-rendered in rubles, converted after hydration. */
export function Price({ kopecks, prefix, className }: PriceProps) {
  const currency = useCurrency();
  const { rates } = useShell();
  return <span className={className ? `price ${className}` : 'price'}>{priceText(kopecks, currency, rates, prefix)}</span>;
}
