// The profile dashboard with its charts and the referral page (issue 13, ADR 031).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { DashboardView, PeriodSwitch, PERIOD_LABELS } from './dashboard-view.tsx';
export { ReferralView, referralLink } from './referral-view.tsx';
