import type { Dashboard, DashboardDay, DashboardPeriod } from '#contract/dashboard';
import { dayLabel } from './format.ts';

// The dashboard's figures in words and rows, apart from drawing them: a chart's caption, its table's rows, an
// axis label, and the bars of the orders by state.

export const PERIOD_SPANS: Record<DashboardPeriod, string> = { '7': 'за 7 дней', '30': 'за 30 дней', '90': 'за 90 дней', '365': 'за год' };

/** "… за 30 дней; больше всего — 1 200 руб., 23 ноября." (the first best day when several tie); `none` when all are 0. */
export function summaryOf(days: DashboardDay[], pick: (d: DashboardDay) => number, format: (n: number) => string, span: string, none: string): string {
  const total = days.reduce((s, d) => s + pick(d), 0);
  if (total === 0) return none;
  const best = days.reduce((a, b) => (pick(b) > pick(a) ? b : a));
  return `${format(total)} ${span}; больше всего — ${format(pick(best))}, ${dayLabel(best.day)}.`;
}

/** The chart's table: the days that have a value in any series (a missing value counts as 0). */
export const chartRows = (days: string[], series: { values: number[] }[]) =>
  days.map((day, i) => ({ day, values: series.map((s) => s.values[i] ?? 0) })).filter((r) => r.values.some((v) => v !== 0));

/** A day (YYYY-MM-DD) from the chart's x value in seconds. */
export const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** An axis label: the series' own format without its unit for money (1 200 руб. → 1 200). */
export const compact = (value: number, format: (value: number) => string) => {
  const text = format(value);
  return text.endsWith('\u00a0руб.') ? text.slice(0, -'\u00a0руб.'.length) : text;
};

/** The width of each state's bar, in % of the largest (no bar is drawn wider than 100 %, none divides by 0). */
export const statusBarWidths = (byStatus: Dashboard['by_status']) => {
  const max = Math.max(1, ...byStatus.map((s) => s.count));
  return byStatus.map((s) => ({ ...s, width: `${(s.count / max) * 100}%` }));
};
