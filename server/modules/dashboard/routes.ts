import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { DashboardService } from './service.ts';

/** The dashboard and referral endpoints (contract/endpoints/dashboard.ts): the caller's own figures only. */
export const dashboardRoutes: FastifyPluginAsync<{ dashboard: DashboardService; reads: ReadHandlers }> = async (app, { dashboard, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('dashboard.mine', async ({ query, user }) => ok(await dashboard.dashboard(user, query)));
  on('referrals.mine', async ({ user }) => ok(await dashboard.referrals(user)));
};
