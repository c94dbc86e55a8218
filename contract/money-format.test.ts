import { describe, expect, it } from 'vitest';
import { formatBasisPoints, formatCurrency, formatPercent, formatRubles } from './money-format.ts';
import { commissionOn, splitPrice } from './money.ts';

// Issue 25: one way to write money on every page and in every letter (ADR 045). `_` stands for the no-break space.
const nb = (text: string) => text.replace(/_/g, '\u00a0');

describe('formatRubles', () => {
  it('writes whole rubles without decimals, with no-break thousand separators and "руб."', () => {
    expect(formatRubles(450_000)).toBe(nb('4_500_руб.'));
    expect(formatRubles(100_000_000)).toBe(nb('1_000_000_руб.'));
    expect(formatRubles(0)).toBe(nb('0_руб.'));
  });
  it('keeps kopecks, always two digits, where the checkout and the admin wrote "12 597,5 руб." and "67,5 руб."', () => {
    expect(formatRubles(1_259_750)).toBe(nb('12_597,50_руб.'));
    expect(formatRubles(6_750)).toBe(nb('67,50_руб.'));
    expect(formatRubles(443_250)).toBe(nb('4_432,50_руб.'));
    expect(formatRubles(5)).toBe(nb('0,05_руб.'));
  });
  it('writes a negative amount with a minus sign, and rounds a fraction of a kopeck', () => {
    expect(formatRubles(-30_000)).toBe(nb('\u2212300_руб.'));
    expect(formatRubles(9_537.4)).toBe(nb('95,37_руб.'));
  });
});

describe('formatCurrency', () => {
  it('writes USDT with two decimals and BTC with seven, a decimal comma, not "15.95 USDT" / "0.0001692 BTC"', () => {
    expect(formatCurrency(1_595, 'USDT')).toBe(nb('15,95_USDT'));
    expect(formatCurrency(2_105, 'USDT')).toBe(nb('21,05_USDT'));
    expect(formatCurrency(123_456_789, 'USDT')).toBe(nb('1_234_567,89_USDT'));
    expect(formatCurrency(16_920, 'BTC')).toBe(nb('0,0001692_BTC'));
    expect(formatCurrency(100_000_000, 'BTC')).toBe(nb('1,0000000_BTC'));
  });
  it('writes RUB as formatRubles does', () => {
    expect(formatCurrency(6_750, 'RUB')).toBe(formatRubles(6_750));
  });
});

describe('formatPercent', () => {
  it('writes «1,5 %», not «1.5 %»', () => {
    expect(formatPercent(1.5)).toBe(nb('1,5_%'));
    expect(formatPercent(30)).toBe(nb('30_%'));
    expect(formatBasisPoints(1_500)).toBe(nb('15_%'));
    expect(formatBasisPoints(125)).toBe(nb('1,25_%'));
  });
});

describe('splitPrice', () => {
  it('gives parts that sum to the price exactly: 4 500 руб. released at 1,5 % is 4 432,50 + 67,50', () => {
    const split = splitPrice(450_000, 100, 150);
    expect(split).toEqual({ customer: 0, seller: 450_000, commission: 6_750, sellerNet: 443_250 });
    // Written out, the parts add up too (the preview once showed 4 433 + 68 = 4 501 of 4 500).
    expect(`${formatRubles(split.sellerNet)} + ${formatRubles(split.commission)}`).toBe(
      nb('4_432,50_руб. + 67,50_руб.'),
    );
  });
  it('sums exactly for awkward prices, percents and commissions', () => {
    for (const price of [1, 99, 100, 50_001, 123_457, 450_000, 99_999_999]) {
      for (const percent of [0, 1, 33, 50, 67, 99, 100]) {
        for (const bp of [0, 150, 1_500, 3_333, 5_000]) {
          const s = splitPrice(price, percent, bp);
          expect(s.customer + s.sellerNet + s.commission).toBe(price);
          expect(s.seller).toBe(s.sellerNet + s.commission);
          expect(Number.isInteger(s.seller) && Number.isInteger(s.commission)).toBe(true);
          expect(s.commission).toBe(commissionOn(s.seller, bp));
          expect(s.customer).toBeGreaterThanOrEqual(0);
          expect(s.sellerNet).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
  it('rounds the seller part half up to the kopeck, the customer getting the rest', () => {
    // 33 % of 1 234,57 руб. = 407,4081 → 407,41 to the seller, 827,16 back.
    expect(splitPrice(123_457, 33, 1_500)).toEqual({
      customer: 82_716,
      seller: 40_741,
      commission: 6_111,
      sellerNet: 34_630,
    });
  });
});
