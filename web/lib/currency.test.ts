import { describe, expect, it } from 'vitest';
import type { Rates } from '#contract/api';
import { convert, formatMoney, isCurrency, ratesReady } from './currency.ts';

const rates: Rates = { RUB: 1, USDT: 100, BTC: 5_000_000, lastUpdated: '2026-03-05T00:00:00.000Z' };
const nf = (n: number, digits = 0) =>
  new Intl.NumberFormat('ru-RU', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);

describe('isCurrency', () => {
  it('accepts only known currencies', () => {
    expect(isCurrency('RUB')).toBe(true);
    expect(isCurrency('USDT')).toBe(true);
    expect(isCurrency('BTC')).toBe(true);
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('rub')).toBe(false);
    expect(isCurrency(null)).toBe(false);
    expect(isCurrency(1)).toBe(false);
  });
});

describe('ratesReady', () => {
  it('is true only when USDT and BTC are positive', () => {
    expect(ratesReady(rates)).toBe(true);
    expect(ratesReady(null)).toBe(false);
    expect(ratesReady(undefined)).toBe(false);
    expect(ratesReady({ ...rates, USDT: 0 })).toBe(false);
    expect(ratesReady({ ...rates, BTC: 0 })).toBe(false);
    expect(ratesReady({ ...rates, BTC: -1 })).toBe(false);
    expect(ratesReady({ ...rates, USDT: Number.NaN })).toBe(false);
  });
});

describe('convert', () => {
  it('keeps RUB unchanged', () => {
    expect(convert(1500, 'RUB', rates)).toBe(1500);
    expect(convert(1500, 'RUB', null)).toBe(1500);
  });
  it('divides by the rate (rubles per unit)', () => {
    expect(convert(1500, 'USDT', rates)).toBe(15);
    expect(convert(1_000_000, 'BTC', rates)).toBe(0.2);
  });
  it('falls back to the input when the rate is missing or not positive', () => {
    expect(convert(1500, 'USDT', null)).toBe(1500);
    expect(convert(1500, 'USDT', { ...rates, USDT: 0 })).toBe(1500);
    expect(convert(1500, 'BTC', { ...rates, BTC: -5 })).toBe(1500);
    // Only the requested currency's rate matters.
    expect(convert(1500, 'USDT', { ...rates, BTC: 0 })).toBe(15);
  });
});

describe('formatMoney', () => {
  it('formats rubles with Russian grouping and "руб."', () => {
    const out = formatMoney(150_000, 'RUB', rates);
    expect(out).toBe(`${nf(1500)}\u00a0руб.`);
    expect(out).toMatch(/^1[\u00a0\u202f ]500\u00a0руб\.$/);
  });
  it('shows kopecks only when there are any, always two digits (ADR 045)', () => {
    expect(formatMoney(150_000, 'RUB', rates)).toBe(`${nf(1500)}\u00a0руб.`);
    expect(formatMoney(150_049, 'RUB', rates)).toBe(`${nf(1500)},49\u00a0руб.`);
    expect(formatMoney(150_050, 'RUB', rates)).toBe(`${nf(1500)},50\u00a0руб.`);
    expect(formatMoney(99, 'RUB', null)).toBe('0,99\u00a0руб.');
    expect(formatMoney(0, 'RUB', null)).toBe('0\u00a0руб.');
    expect(formatMoney(-20, 'RUB', null)).toBe('\u22120,20\u00a0руб.');
  });
  it('formats USDT with exactly two decimals', () => {
    expect(formatMoney(150_000, 'USDT', rates)).toBe(`${nf(15, 2)}\u00a0USDT`);
    expect(formatMoney(150_000, 'USDT', rates)).toBe('15,00\u00a0USDT');
    expect(formatMoney(123_456_789, 'USDT', rates)).toBe(`${nf(12345.68, 2)}\u00a0USDT`);
  });
  it('formats BTC with seven decimals', () => {
    expect(formatMoney(150_000, 'BTC', rates)).toBe('0,0003000\u00a0BTC');
  });
  it('falls back to RUB formatting when rates are unusable', () => {
    expect(formatMoney(150_000, 'USDT', null)).toBe(`${nf(1500)}\u00a0руб.`);
    expect(formatMoney(150_000, 'BTC', { ...rates, BTC: 0 })).toBe(`${nf(1500)}\u00a0руб.`);
  });
});
