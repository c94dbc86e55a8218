import { defineModule } from '../../platform/module.ts';
import { AdminUserService } from './users-service.ts';
import { adminUserRoutes } from './users-routes.ts';
import { adminSettingsRoutes } from './settings-routes.ts';
import { OverviewService } from './overview-service.ts';
import { adminOverviewRoutes } from './overview-routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    adminUsers: AdminUserService;
    /** The admin home's figures (ADR 036). */
    overview: OverviewService;
  }
}

export const adminModule = defineModule({
  name: 'admin',
  create: ({ db, services: { auth, twoFactor, platform, disputes } }) => ({
    adminUsers: new AdminUserService(db, auth, platform.withTx, twoFactor),
    overview: new OverviewService({ db, clock: platform.clock, disputes }),
  }),
  async routes(app, { db, services: { adminUsers, settings, overview }, reads }) {
    await app.register(adminUserRoutes, { adminUsers, reads });
    await app.register(adminSettingsRoutes, { settings, reads });
    await app.register(adminOverviewRoutes, { overview, db, reads });
  },
});
