import type { Overview, OverviewPeriod } from '#contract/admin';
import { count, dayLabel, rubles } from '../dashboard/index.ts';

// The admin home's words (ADR 036): the period's span, the charts' summaries for screen readers, the bars of the
// orders by state.

type Day = Overview['days'][number];

export const OVERVIEW_SPANS: Record<OverviewPeriod, string> = { '7': 'за 7 дней', '30': 'за 30 дней', '90': 'за 90 дней', '365': 'за год' };

/** The day most was paid in (the first of equals), or undefined for no days. */
export const busiestDay = (days: readonly Day[]): Day | undefined =>
  days.reduce<Day | undefined>((a, b) => (a === undefined || b.paid_in > a.paid_in ? b : a), undefined);

/** What the money chart says in words. */
export function moneySummary(days: readonly Day[], totals: Overview['totals'], span: string): string {
  const best = busiestDay(days);
  if (!totals.paid_in || !best) return `Оплат ${span} нет.`;
  return `Оплачено ${rubles(totals.paid_in)} ${span}, доход площадки ${rubles(totals.revenue)}; больше всего — ${rubles(best.paid_in)}, ${dayLabel(best.day)}.`;
}

/** What the orders chart says in words. */
export const ordersSummary = (orders: number, span: string) => (orders ? `${count(orders)} ${span}.` : `Заказов ${span} нет.`);

/** Under the waiting withdrawals: their sum, or that there are none. */
export const withdrawalsHint = (waiting: Overview['waiting']) =>
  waiting.withdrawals ? `на ${rubles(waiting.withdrawals_amount)}` : 'Нет ожидающих';

/** Each state's bar as a share of the largest (an empty list or all zeros draws no bar). */
export function statusBars(rows: Overview['orders_by_status']): { status: string; count: number; width: string }[] {
  const max = Math.max(1, ...rows.map((s) => s.count));
  return rows.map((s) => ({ ...s, width: `${(s.count / max) * 100}%` }));
}
