import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { ProjectService } from './service.ts';

/**
 * The admin area's projects: list, open, hide or restore (with the reason on record), edit. A non-admin is
 * refused before validation by app.ts (the /api/admin prefix), so learns nothing from a 400.
 */
export const adminProjectRoutes: FastifyPluginAsync<{ projects: ProjectService; reads: ReadHandlers }> = async (app, { projects, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('admin.projects.list', async ({ query }) => {
    const { result, total, next } = await projects.adminList(query);
    return { ...ok(result, total), next };
  });

  on('admin.projects.get', async ({ params }) => ok(await projects.adminGet(params.id)));

  on('admin.projects.moderate', async ({ params, body, user }) => ok(await projects.decide(user, params.id, body)));

  on('admin.projects.update', async ({ params, body, user }) => ok(await projects.adminUpdate(user, params.id, body)));
};
