// The profile dashboard and the referral page (issue 13, ADR 031): the person's own figures, read from the ledger,
// the orders and the daily service views.
export { DashboardService, type DashboardServiceDeps } from './service.ts';
export { dashboardRoutes } from './routes.ts';
export { dashboardModule } from './module.ts';
