import { describe, expect, it } from 'vitest';
import type { DashboardDay } from '#contract/dashboard';
import { DASHBOARD_PERIODS } from '#contract/dashboard';
import { chartRows, compact, isoOf, PERIOD_SPANS, statusBarWidths, summaryOf } from './chart-data.ts';
import { count, ordersWord, rubles } from './format.ts';

const _ = '\u00a0';
const day = (d: string, amount = 0, orders = 0, views = 0): DashboardDay => ({ day: d, amount, orders, views });
const days = [day('2026-11-21', 120_000, 1), day('2026-11-22'), day('2026-11-23', 30_050, 3, 10)];
const ordersText = (n: number) => `${count(n)} ${ordersWord(n)}`;

describe('summaryOf', () => {
  it('says the period’s total and its best day', () => {
    expect(summaryOf(days, (d) => d.amount, rubles, 'заработано за 7 дней', 'Заработка за 7 дней нет.')).toBe(
      `1${_}500,50${_}руб. заработано за 7 дней; больше всего — 1${_}200${_}руб., 21 ноября.`,
    );
    expect(summaryOf(days, (d) => d.orders, ordersText, 'за 7 дней', 'Заказов за 7 дней нет.')).toBe(
      '4 заказа за 7 дней; больше всего — 3 заказа, 23 ноября.',
    );
  });

  it('names the first of the days that tie', () => {
    const tie = [day('2026-11-01', 0, 2), day('2026-11-02', 0, 2)];
    expect(summaryOf(tie, (d) => d.orders, ordersText, 'за 7 дней', '')).toBe('4 заказа за 7 дней; больше всего — 2 заказа, 1 ноября.');
  });

  it('says there is nothing when every day is 0, and with no days at all', () => {
    expect(summaryOf([day('2026-11-01'), day('2026-11-02')], (d) => d.views, count, 'за 7 дней', 'Просмотров за 7 дней нет.')).toBe('Просмотров за 7 дней нет.');
    expect(summaryOf([], (d) => d.amount, rubles, 'за год', 'Расходов за год нет.')).toBe('Расходов за год нет.');
  });

  it('has a span for every period', () => {
    expect(DASHBOARD_PERIODS.map((p) => PERIOD_SPANS[p])).toEqual(['за 7 дней', 'за 30 дней', 'за 90 дней', 'за год']);
  });
});

describe('the chart’s table', () => {
  it('keeps the days that have a value in any series', () => {
    const rows = chartRows(
      days.map((d) => d.day),
      [{ values: [120_000, 0, 0] }, { values: [0, 0, 3] }],
    );
    expect(rows).toEqual([
      { day: '2026-11-21', values: [120_000, 0] },
      { day: '2026-11-23', values: [0, 3] },
    ]);
  });

  it('counts a missing value as 0, and keeps a negative one', () => {
    expect(chartRows(['2026-11-01', '2026-11-02'], [{ values: [-5] }])).toEqual([{ day: '2026-11-01', values: [-5] }]);
    expect(chartRows(['2026-11-01'], [])).toEqual([]);
  });

  it('turns the x value back into its day', () => {
    expect(isoOf(Date.parse('2026-11-23T00:00:00Z') / 1000)).toBe('2026-11-23');
    expect(isoOf(Date.parse('2026-12-31T23:59:59Z') / 1000)).toBe('2026-12-31');
  });

  it('labels the money axis without its unit, and counts as they are', () => {
    expect(compact(120_000, rubles)).toBe(`1${_}200`);
    expect(compact(150, rubles)).toBe('1,50');
    expect(compact(12_345, count)).toBe('12 345');
  });
});

describe('statusBarWidths', () => {
  it('draws each state’s bar against the largest', () => {
    expect(
      statusBarWidths([
        { status: 'completed', count: 4 },
        { status: 'cancelled', count: 1 },
        { status: 'disputed', count: 0 },
      ]).map((s) => s.width),
    ).toEqual(['100%', '25%', '0%']);
  });

  it('draws no bar when every count is 0, and none with no states', () => {
    expect(statusBarWidths([{ status: 'in_progress', count: 0 }])).toEqual([{ status: 'in_progress', count: 0, width: '0%' }]);
    expect(statusBarWidths([])).toEqual([]);
  });
});
