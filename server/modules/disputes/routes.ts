import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { DisputeService } from './service.ts';

/** The disputes endpoints (contract/endpoints/disputes.ts), the admin area's included (app.ts guards /api/admin). */
export const disputeRoutes: FastifyPluginAsync<{ disputes: DisputeService; reads: ReadHandlers }> = async (app, { disputes, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('disputes.create', async ({ body, user }) => ok(await disputes.create(user, body)));
  on('disputes.mine', async ({ query, user }) => {
    const { result, total } = await disputes.mine(user, query);
    return { ...ok(result, total), total };
  });
  on('disputes.cancel', async ({ params, user }) => ok(await disputes.cancel(user, params.id)));

  on('admin.disputes.list', async ({ query, user }) => {
    const { result, total, next } = await disputes.adminList(user, query);
    return { ...ok(result, total), total, next };
  });
  on('admin.disputes.get', async ({ params, user }) => ok(await disputes.adminGet(user, params.id)));
  on('admin.disputes.take', async ({ params, user }) => ok(await disputes.take(user, params.id)));
  on('admin.disputes.resolve', async ({ params, body, user }) => ok(await disputes.resolve(user, params.id, body)));
};
