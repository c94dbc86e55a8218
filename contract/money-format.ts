import { LOCALE, type Currency } from './constants.ts';

// Money as the site and its letters write it (SPEC §9, ADR 045): the one formatter of the browser and the server.
// Zod-free and dependency-free, so pages and letters import it alike. Rubles keep their kopecks when there are
// any ("67,50 руб."), so that a price, its commission and the seller's part add up on the page as in the ledger;
// whole rubles show no decimals ("4 500 руб."). Non-breaking spaces group the digits and come before the unit.

export const NBSP = '\u00a0';
/** The minus sign (U+2212) of a negative amount: a hyphen is not a minus. */
export const MINUS = '\u2212';

/** Decimal places each currency is shown with (SPEC §9), and its minor units per unit. */
export const CURRENCY_DIGITS = { RUB: 2, USDT: 2, BTC: 7 } as const satisfies Record<Currency, number>;
export const CURRENCY_MINOR = { RUB: 100, USDT: 100, BTC: 100_000_000 } as const satisfies Record<Currency, number>;

const wholeFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const cryptoFormats = {
  USDT: new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  BTC: new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 7, maximumFractionDigits: 7 }),
};
const percentFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

/** Intl's group separator may be U+00A0 or U+202F by ICU version; the site writes U+00A0 everywhere. */
const nbsp = (text: string) => text.replace(/\u202f/g, NBSP);

/** "4 500 руб.", "67,50 руб.", "−300 руб." from kopecks (a fraction of a kopeck is rounded). */
export function formatRubles(kopecks: number): string {
  const k = Math.round(kopecks);
  const abs = Math.abs(k);
  const whole = nbsp(wholeFormat.format(Math.floor(abs / 100)));
  const rest = abs % 100;
  return `${k < 0 ? MINUS : ''}${whole}${rest ? `,${String(rest).padStart(2, '0')}` : ''}${NBSP}руб.`;
}

/** A crypto amount in whole units (a converted price): "15,95 USDT", "0,0001692 BTC". */
export function formatCrypto(value: number, currency: Exclude<Currency, 'RUB'>): string {
  // `|| 0` turns -0 into 0 so a tiny negative never prints "-0,00".
  return `${nbsp(cryptoFormats[currency].format(value || 0)).replace('-', MINUS)}${NBSP}${currency}`;
}

/** An amount in the currency's minor units (kopecks, USDT cents, satoshi) as the pages and letters show it. */
export function formatCurrency(minor: number, currency: Currency): string {
  return currency === 'RUB' ? formatRubles(minor) : formatCrypto(minor / CURRENCY_MINOR[currency], currency);
}

/** A percent as Russian typography writes it: 1.5 → "1,5 %", 30 → "30 %". */
export const formatPercent = (percent: number): string => `${nbsp(percentFormat.format(percent))}${NBSP}%`;

/** Basis points as percent: 150 → "1,5 %". */
export const formatBasisPoints = (bp: number): string => formatPercent(bp / 100);
