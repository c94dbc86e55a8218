import { defineModule } from '../../platform/module.ts';
import { DashboardService } from './service.ts';
import { dashboardRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    dashboard: DashboardService;
  }
}

export const dashboardModule = defineModule({
  name: 'dashboard',
  // The profile dashboard and referral page (issue 13).
  create: ({ db, services: { settings, platform } }) => ({ dashboard: new DashboardService({ db, settings, clock: platform.clock }) }),
  routes: (app, { services: { dashboard }, reads }) => app.register(dashboardRoutes, { dashboard, reads }),
});
