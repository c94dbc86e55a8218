// The profile dashboard with its charts and the referral page (issue 13, ADR 031).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { DashboardView, PeriodSwitch, PERIOD_LABELS } from './dashboard-view.tsx';
export { ReferralView, referralLink } from './referral-view.tsx';
// The admin home's charts (ADR 036) are drawn by the same component.
export { TimeChart, type ChartSeries } from './chart.tsx';
export { count, dayLabel, ordersWord, rubles } from './format.ts';
