import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { AdminUserService } from './users-service.ts';

export const adminUserRoutes: FastifyPluginAsync<{ adminUsers: AdminUserService; reads: ReadHandlers }> = async (app, { adminUsers, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('admin.users.list', async ({ query }) => {
    const { result, total } = await adminUsers.list(query);
    return ok(result, total);
  });

  on('admin.users.get', async ({ params }) => ok(await adminUsers.get(params.id)));

  on('admin.users.block', async ({ params, body, user }) => ok(await adminUsers.setBlocked(user, params.id, body.blocked, body.reason)));

  on('admin.users.setAdmin', async ({ params, body, user }) => ok(await adminUsers.setAdmin(user, params.id, body.admin)));

  on('admin.users.resetTwoFactor', async ({ params, user }) => ok(await adminUsers.resetTwoFactor(user, params.id)));
};
