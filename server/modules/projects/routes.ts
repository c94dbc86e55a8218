import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { visitorOf } from '../../platform/listing/visitors.ts';
import type { ProjectService } from './service.ts';

// Signed-in routes answer 401/403 before looking at the request: a guest learns nothing from a 400. (The
// contract's access is checked again with the handler, the same way for the pages' in-process reads.)

/** Customers' projects: the public listing and page, and the customer's own ones (/profile/items). */
export const projectRoutes: FastifyPluginAsync<{ projects: ProjectService; reads: ReadHandlers }> = async (
  app,
  { projects, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('projects.list', async ({ query }) => {
    const { result, total, total_exact, next, partial } = await projects.list(query);
    return { ...ok(result, total), total, total_exact, next, ...(partial ? { partial } : {}) };
  });

  on('projects.mine', async ({ query, user }) => {
    const { result, total, next } = await projects.mine(user, query);
    return { ...ok(result, total), next };
  });

  on('projects.get', async ({ params, user, ip }) => ok(await projects.get(params.id, user, visitorOf(user, ip))));

  on('projects.create', async ({ body, user }) => ok(await projects.create(user, body)));

  on('projects.update', async ({ params, body, user }) => ok(await projects.update(user, params.id, body)));

  on('projects.remove', async ({ params, user }) => {
    await projects.remove(user, params.id);
    return ok({ _id: params.id });
  });
};
