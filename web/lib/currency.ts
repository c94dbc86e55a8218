import type { Rates } from '#contract/api';
import { CURRENCIES, type Currency } from '#contract/constants';
import { formatCrypto, formatRubles } from '#contract/money-format';

export type { Currency, Rates };

export function isCurrency(x: unknown): x is Currency {
  return typeof x === 'string' && (CURRENCIES as readonly string[]).includes(x);
}

function usableRate(rate: unknown): rate is number {
  return typeof rate === 'number' && Number.isFinite(rate) && rate > 0;
}

/** True only when both USDT and BTC rates are known (> 0). */
export function ratesReady(rates: Rates | null | undefined): rates is Rates {
  return !!rates && usableRate(rates.USDT) && usableRate(rates.BTC);
}

/** The rate (rubles per unit) to use for `currency`, or null when conversion must fall back to RUB. */
function rateFor(currency: Currency, rates: Rates | null | undefined): number | null {
  if (currency === 'RUB' || !rates) return null;
  const rate = rates[currency];
  return usableRate(rate) ? rate : null;
}

/**
 * Converts a ruble amount into `currency`. Returns the input unchanged for RUB or when
 * that currency's rate is missing / not positive (the caller then shows rubles).
 */
export function convert(amountRub: number, currency: Currency, rates: Rates | null | undefined): number {
  const rate = rateFor(currency, rates);
  return rate === null ? amountRub : amountRub / rate;
}

/** Formats an amount stored in kopecks in the selected currency (RUB when rates are unusable); contract/money-format writes it. */
export function formatMoney(kopecks: number, currency: Currency, rates: Rates | null | undefined): string {
  const rate = rateFor(currency, rates);
  if (rate === null || currency === 'RUB') return formatRubles(kopecks);
  return formatCrypto(kopecks / 100 / rate, currency);
}
