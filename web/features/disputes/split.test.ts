import { describe, expect, it } from 'vitest';
import { splitPrice } from '#contract/money';
import { splitTexts } from './split.ts';

// The admin's split preview (issue 25): the amounts it writes add up to the price, to the kopeck.

/** Every "N руб." of a text, in kopecks: the digits, no-break spaces and comma just before each " руб.". */
function amounts(text: string): number[] {
  return text
    .split('\u00a0руб.')
    .slice(0, -1)
    .map((before) => {
      let start = before.length;
      while (start > 0 && '0123456789,\u00a0'.includes(before[start - 1]!)) start--;
      const [whole = '', kopecks = '00'] = before
        .slice(start)
        .replace(/\u00a0/g, '')
        .split(',');
      return Number(whole) * 100 + Number(kopecks);
    });
}

describe('splitTexts', () => {
  it('writes what each side receives and the commission so that they sum to the price', () => {
    for (const [price, percent, bp] of [
      [450_000, 100, 150],
      [450_000, 50, 150],
      [123_457, 33, 1_500],
      [150_000, 40, 1_500],
      [99_999, 67, 3_333],
    ] as const) {
      const split = splitPrice(price, percent, bp);
      const t = splitTexts(split, percent);
      const [customer] = amounts(t.customer);
      const [net] = amounts(t.seller);
      const [seller, commission] = t.commission ? amounts(t.commission) : [net, 0];
      expect(customer! + net! + commission!).toBe(price);
      expect(seller).toBe(net! + commission!);
    }
  });
  it('reads as the preview shows it', () => {
    const t = splitTexts(splitPrice(150_000, 40, 1_500), 40);
    expect(t.customer).toBe('Заказчику (60\u00a0%): 900\u00a0руб.');
    expect(t.seller).toBe('Исполнителю (40\u00a0%): 510\u00a0руб.');
    expect(t.commission).toBe('(600\u00a0руб. за вычетом комиссии сервиса 90\u00a0руб.)');
    expect(splitTexts(splitPrice(150_000, 40, 0), 40).commission).toBeNull();
  });
});
