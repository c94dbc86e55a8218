import { describe, expect, it } from 'vitest';
import { dayOf, daysUpTo } from '#contract/dashboard';
import {
  basisPoints,
  count,
  dayLabel,
  dayLabelShort,
  dayYearLabel,
  daysWord,
  monthsWord,
  ordersWord,
  paidOrdersWord,
  peopleWord,
  percent,
  rubles,
  viewsWord,
} from './format.ts';
import { referralLink } from './referral-view.tsx';

describe('dashboard days and labels', () => {
  it('counts Moscow days: 21:00 UTC is already the next day', () => {
    expect(dayOf(new Date('2026-11-23T20:59:59Z'))).toBe('2026-11-23');
    expect(dayOf(new Date('2026-11-23T21:00:00Z'))).toBe('2026-11-24');
  });

  it('lists the days of a period up to the last, across a month and a year', () => {
    expect(daysUpTo('2026-03-02', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    const year = daysUpTo('2027-01-01', 365);
    expect(year).toHaveLength(365);
    expect(year[0]).toBe('2026-01-02');
  });

  it('shows days as written whatever the browser zone, rates as Russian percents', () => {
    expect(dayLabel('2026-11-01')).toBe('1 ноября');
    expect(basisPoints(350)).toBe('3,5\u00a0%');
    expect(basisPoints(250)).toBe('2,5\u00a0%');
    expect(percent(2 / 7)).toBe('28,6\u00a0%');
  });

  it('makes the referral link on the site address, with or without its trailing slash', () => {
    expect(referralLink('https://podryad.example/', 'AB12CD34')).toBe('https://podryad.example/?referralCode=AB12CD34');
    expect(referralLink('https://podryad.example', 'AB12CD34')).toBe('https://podryad.example/?referralCode=AB12CD34');
  });
});

describe('dashboard words', () => {
  it.each([
    [0, 'заказов', 'оплаченных заказов', 'просмотров', 'человек', 'месяцев', 'дней'],
    [1, 'заказ', 'оплаченный заказ', 'просмотр', 'человек', 'месяц', 'день'],
    [2, 'заказа', 'оплаченных заказа', 'просмотра', 'человека', 'месяца', 'дня'],
    [5, 'заказов', 'оплаченных заказов', 'просмотров', 'человек', 'месяцев', 'дней'],
    [11, 'заказов', 'оплаченных заказов', 'просмотров', 'человек', 'месяцев', 'дней'],
    [21, 'заказ', 'оплаченный заказ', 'просмотр', 'человек', 'месяц', 'день'],
    [22, 'заказа', 'оплаченных заказа', 'просмотра', 'человека', 'месяца', 'дня'],
    [112, 'заказов', 'оплаченных заказов', 'просмотров', 'человек', 'месяцев', 'дней'],
  ])('agree with %s', (n, orders, paid, views, people, months, days) => {
    expect([ordersWord(n), paidOrdersWord(n), viewsWord(n), peopleWord(n), monthsWord(n), daysWord(n)]).toEqual([orders, paid, views, people, months, days]);
  });

  it('count with plain spaces, and give money in rubles to the kopeck', () => {
    expect(count(0)).toBe('0');
    expect(count(1_234_567)).toBe('1 234 567');
    expect(rubles(123_456)).toBe('1\u00a0234,56\u00a0руб.');
    expect(rubles(0)).toBe('0\u00a0руб.');
  });

  it('write days with the year, and short on the axes', () => {
    expect(dayYearLabel('2026-01-01')).toBe('1 января 2026 г.');
    expect(dayLabelShort('2026-11-23')).toMatch(/^23 нояб\.?$/);
    expect(dayLabel('2026-12-31')).toBe('31 декабря');
  });

  it('write ratios as percents with one decimal', () => {
    expect(percent(0)).toBe('0\u00a0%');
    expect(percent(1)).toBe('100\u00a0%');
    expect(percent(0.0425)).toBe('4,3\u00a0%');
  });
});
