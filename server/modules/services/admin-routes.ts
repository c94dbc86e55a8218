import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { ServiceCatalog } from './service.ts';

/**
 * Moderation of services (/admin/services): the queue, one service, decisions and edits. A non-admin is refused
 * before validation by app.ts (the /api/admin prefix), so learns nothing from a 400.
 */
export const adminServicesRoutes: FastifyPluginAsync<{ catalog: ServiceCatalog; reads: ReadHandlers }> = async (app, { catalog, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('admin.services.list', async ({ query }) => {
    const { result, total, next } = await catalog.adminList(query);
    return { ...ok(result, total), total, next };
  });

  on('admin.services.get', async ({ params }) => ok(await catalog.adminGet(params.id)));

  on('admin.services.moderate', async ({ params, body, user }) => ok(await catalog.decide(user, params.id, body)));

  on('admin.services.update', async ({ params, body, user }) => ok(await catalog.adminUpdate(user, params.id, body)));
};
