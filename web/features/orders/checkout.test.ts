import { describe, expect, it } from 'vitest';
import type { Service } from '#contract/catalog';
import { DEFAULT_PAYMENT_RATES } from '#contract/payments';
import { checkoutTotals, defaultPackage, paymentWays, toggleExtra } from './checkout.ts';

// The service page's checkout (ADR 042): a choice's total and days, and what each way to pay adds.

type Packages = Service['packages'];
const pkg = (kind: Packages[number]['kind'], price: number, days: number) => ({ kind, price, days }) as Packages[number];
const packages: Packages = [pkg('economy', 100_000, 5), pkg('standard', 200_000, 3), pkg('business', 400_000, 2)];
const extras = [
  { title: 'Исходники', price: 50_000, days: 1 },
  { title: 'Срочно', price: 100_050, days: 0 },
] as Service['extras'];
const service = { packages, extras, price: 150_000, days: 7 };

describe('defaultPackage', () => {
  it('chooses the standard package, else the first, else none', () => {
    expect(defaultPackage(packages)).toBe('standard');
    expect(defaultPackage([packages[2]!, packages[0]!])).toBe('business');
    expect(defaultPackage([])).toBeNull();
  });
});

describe('checkoutTotals', () => {
  it.each([
    ['the standard package alone', 'standard', [], 200_000, 3],
    ['economy with the sources', 'economy', [0], 150_000, 6],
    ['business with both extras', 'business', [0, 1], 550_050, 3],
  ] as const)('adds up %s', (_what, chosen, ticked, total, days) => {
    const totals = checkoutTotals(service, chosen, [...ticked]);
    expect(totals.total).toBe(total);
    expect(totals.days).toBe(days);
    expect(totals.chosenExtras).toEqual(ticked.map((i) => extras[i]));
  });

  it('prices a service without packages by its own price and days', () => {
    expect(checkoutTotals({ ...service, packages: [] }, null, [1])).toMatchObject({ total: 250_050, days: 7 });
  });

  it('falls back to the service’s own price for a package it does not have', () => {
    expect(checkoutTotals({ ...service, packages: [packages[0]!] }, 'business', [])).toMatchObject({ total: 150_000, days: 7 });
  });

  it('ignores an extra the service no longer has', () => {
    expect(checkoutTotals(service, 'standard', [5, 0])).toMatchObject({ total: 250_000, days: 4, chosenExtras: [extras[0]] });
  });
});

describe('toggleExtra', () => {
  it('keeps the ticked extras in the service’s order', () => {
    expect(toggleExtra([], 1, true)).toEqual([1]);
    expect(toggleExtra([2], 0, true)).toEqual([0, 2]);
    expect(toggleExtra([0, 10, 2], 1, true)).toEqual([0, 1, 2, 10]);
  });

  it('ticks an extra once however often it is ticked (a replayed click)', () => {
    expect(toggleExtra([1], 1, true)).toEqual([1]);
    expect(toggleExtra(toggleExtra([0], 2, true), 2, true)).toEqual([0, 2]);
  });

  it('unticks one without touching the others', () => {
    expect(toggleExtra([0, 1, 2], 1, false)).toEqual([0, 2]);
    expect(toggleExtra([0, 2], 1, false)).toEqual([0, 2]);
  });
});

describe('paymentWays', () => {
  it('offers the ways whose limits hold the total, each with its fee added', () => {
    expect(paymentWays(DEFAULT_PAYMENT_RATES, 400_000)).toEqual([
      { key: 'card', title: 'Банковская карта', percent: 0, withFee: 400_000 },
      { key: 'usdt', title: 'USDT (TRC-20)', percent: 1, withFee: 404_000 },
      { key: 'btc', title: 'Bitcoin', percent: 1.5, withFee: 406_000 },
    ]);
  });

  it('includes the limits themselves', () => {
    expect(paymentWays(DEFAULT_PAYMENT_RATES, 50_000).map((w) => w.key)).toEqual(['card']);
    expect(paymentWays(DEFAULT_PAYMENT_RATES, 49_999)).toEqual([]);
    expect(paymentWays(DEFAULT_PAYMENT_RATES, 100_000).map((w) => w.key)).toEqual(['card', 'usdt']);
    expect(paymentWays(DEFAULT_PAYMENT_RATES, 60_000_001).map((w) => w.key)).toEqual(['usdt', 'btc']);
  });

  it('rounds the fee to the kopeck', () => {
    expect(paymentWays({ x: { title: 'X', currency: 'RUB', fee: 1.5, min: 0, max: 1_000_000 } }, 333)).toEqual([
      { key: 'x', title: 'X', percent: 1.5, withFee: 338 },
    ]);
  });

  it('offers nothing before the rates are known', () => {
    expect(paymentWays(null, 400_000)).toEqual([]);
    expect(paymentWays(undefined, 400_000)).toEqual([]);
  });
});
