import { describe, expect, it } from 'vitest';
import type { Rates } from '#contract/api';
import { priceText } from './price.tsx';

const rates: Rates = { RUB: 1, USDT: 100, BTC: 5_000_000, lastUpdated: null };

describe('priceText', () => {
  it('shows rubles with a no-break space and a prefix', () => {
    expect(priceText(150_000, 'RUB', rates)).toBe('1\u00a0500\u00a0руб.');
    expect(priceText(150_000, 'RUB', rates, 'от')).toBe('от\u00a01\u00a0500\u00a0руб.');
    expect(priceText(2_500_000, 'RUB', rates, 'до')).toBe('до\u00a025\u00a0000\u00a0руб.');
    expect(priceText(30_000, 'RUB', rates, '+')).toBe('+300\u00a0руб.');
  });

  it('converts when the rates are ready', () => {
    expect(priceText(150_000, 'USDT', rates, 'от')).toBe('от\u00a015,00\u00a0USDT');
    expect(priceText(500_000_000, 'BTC', rates)).toBe('1,0000000\u00a0BTC');
  });

  it('stays in rubles until both rates are above zero (SPEC §4)', () => {
    expect(priceText(150_000, 'USDT', { ...rates, BTC: 0 })).toBe('1\u00a0500\u00a0руб.');
    expect(priceText(150_000, 'BTC', null)).toBe('1\u00a0500\u00a0руб.');
  });
});
