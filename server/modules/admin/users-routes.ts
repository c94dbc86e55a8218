import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { AdminUserService } from './users-service.ts';

export const adminUserRoutes: FastifyPluginAsync<{ adminUsers: AdminUserService; reads: ReadHandlers }> = async (app, { adminUsers, reads }) => {
  // Before validation, so a non-admin learns nothing from a 400; app.ts checks by URL prefix as well,
  // this also covers a path that reaches these routes spelled differently (percent-encoded).
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });
  const { on } = endpointsOf(app, reads);

  on('admin.users.list', async ({ query }) => {
    const { result, total } = await adminUsers.list(query);
    return ok(result, total);
  });

  on('admin.users.get', async ({ params }) => ok(await adminUsers.get(params.id)));

  on('admin.users.block', async ({ params, body, user }) => ok(await adminUsers.setBlocked(user, params.id, body.blocked, body.reason)));

  on('admin.users.setAdmin', async ({ params, body, user }) => ok(await adminUsers.setAdmin(user, params.id, body.admin)));
};
