import { describe, expect, it } from 'vitest';
import type { Overview } from '#contract/admin';
import { busiestDay, moneySummary, ordersSummary, OVERVIEW_SPANS, statusBars, withdrawalsHint } from './overview-format.ts';

const day = (d: string, paid_in: number, revenue = 0, orders = 0) => ({ day: d, paid_in, revenue, orders });
const totals = (over: Partial<Overview['totals']> = {}): Overview['totals'] => ({ paid_in: 0, revenue: 0, orders: 0, new_users: 0, ...over });

describe('OVERVIEW_SPANS', () => {
  it.each([
    ['7', 'за 7 дней'],
    ['30', 'за 30 дней'],
    ['90', 'за 90 дней'],
    ['365', 'за год'],
  ] as const)('%s days read «%s»', (period, span) => {
    expect(OVERVIEW_SPANS[period]).toBe(span);
  });
});

describe('busiestDay', () => {
  it('is undefined without days', () => {
    expect(busiestDay([])).toBeUndefined();
  });
  it('finds the day most was paid in', () => {
    expect(busiestDay([day('2026-11-01', 100), day('2026-11-02', 900), day('2026-11-03', 500)])?.day).toBe('2026-11-02');
  });
  it('takes the first of equal days', () => {
    expect(busiestDay([day('2026-11-01', 0), day('2026-11-02', 700), day('2026-11-03', 700)])?.day).toBe('2026-11-02');
    expect(busiestDay([day('2026-11-01', 0), day('2026-11-02', 0)])?.day).toBe('2026-11-01');
  });
});

describe('moneySummary', () => {
  const days = [day('2026-11-22', 150_000), day('2026-11-23', 2_500_000), day('2026-11-24', 0)];

  it('names the totals and the busiest day', () => {
    expect(moneySummary(days, totals({ paid_in: 2_650_000, revenue: 397_500 }), 'за 7 дней')).toBe(
      'Оплачено 26\u00a0500\u00a0руб. за 7 дней, доход площадки 3\u00a0975\u00a0руб.; больше всего — 25\u00a0000\u00a0руб., 23 ноября.',
    );
  });
  it('says there were no payments', () => {
    expect(moneySummary(days.map((d) => ({ ...d, paid_in: 0 })), totals(), 'за год')).toBe('Оплат за год нет.');
  });
  it('says there were no payments when there are no days to name', () => {
    expect(moneySummary([], totals({ paid_in: 100 }), 'за 30 дней')).toBe('Оплат за 30 дней нет.');
  });
  it('keeps a Moscow day as written, whatever the time zone', () => {
    expect(moneySummary([day('2026-01-01', 100)], totals({ paid_in: 100 }), 'за 7 дней')).toMatch(/, 1 января\.$/);
  });
});

describe('ordersSummary', () => {
  it.each([
    [0, 'за 7 дней', 'Заказов за 7 дней нет.'],
    [1, 'за 7 дней', '1 за 7 дней.'],
    [12_345, 'за год', '12 345 за год.'],
  ])('%i %s → %s', (orders, span, text) => {
    expect(ordersSummary(orders, span)).toBe(text);
  });
});

describe('withdrawalsHint', () => {
  it.each([
    [{ withdrawals: 0, withdrawals_amount: 0, services: 3, disputes: 1 }, 'Нет ожидающих'],
    [{ withdrawals: 2, withdrawals_amount: 1_234_567, services: 0, disputes: 0 }, 'на 12\u00a0345,67\u00a0руб.'],
    [{ withdrawals: 1, withdrawals_amount: 0, services: 0, disputes: 0 }, 'на 0\u00a0руб.'],
  ])('%j → %s', (waiting, hint) => {
    expect(withdrawalsHint(waiting)).toBe(hint);
  });
});

describe('statusBars', () => {
  it('draws each state as a share of the largest', () => {
    expect(
      statusBars([
        { status: 'completed', count: 40 },
        { status: 'paid', count: 10 },
        { status: 'cancelled', count: 0 },
      ]),
    ).toEqual([
      { status: 'completed', count: 40, width: '100%' },
      { status: 'paid', count: 10, width: '25%' },
      { status: 'cancelled', count: 0, width: '0%' },
    ]);
  });
  it('draws no bar when every count is zero (no division by zero)', () => {
    expect(statusBars([{ status: 'paid', count: 0 }])).toEqual([{ status: 'paid', count: 0, width: '0%' }]);
  });
  it('is empty for no states', () => {
    expect(statusBars([])).toEqual([]);
  });
  it('keeps the order it was given', () => {
    const rows = ['a', 'b', 'c'].map((status, i) => ({ status, count: 3 - i }));
    expect(statusBars(rows).map((r) => r.status)).toEqual(['a', 'b', 'c']);
  });
});
