import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { projectInputSchema } from '#contract/catalog';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import {
  adminProjectDetailSchema,
  adminProjectSchema,
  adminProjectsQuerySchema,
  projectDecisionSchema,
  type ProjectService,
} from './service.ts';
import { pageSchema } from './routes.ts';

const security = [{ bearer: [] }];
const params = z.object({ id: z.uuid('Неверный идентификатор') });

/** The admin area's projects: list, open, hide or restore (with the reason on record), edit. */
export const adminProjectRoutes: FastifyPluginAsyncZod<{ projects: ProjectService }> = async (app, { projects }) => {
  // Before validation, so a non-admin learns nothing from a 400 (app.ts checks the /api/admin prefix as well).
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/projects',
    { schema: { tags: ['admin'], security, querystring: adminProjectsQuerySchema, response: { 200: pageSchema(adminProjectSchema) } } },
    async (request) => {
      requireAdmin(request);
      const { result, total, next } = await projects.adminList(request.query);
      return { ...ok(result, total), next };
    },
  );

  app.get(
    '/api/admin/projects/:id',
    { schema: { tags: ['admin'], security, params, response: { 200: okSchema(adminProjectDetailSchema) } } },
    async (request) => {
      requireAdmin(request);
      return ok(await projects.adminGet(request.params.id));
    },
  );

  app.patch(
    '/api/admin/projects/:id',
    { schema: { tags: ['admin'], security, params, body: projectDecisionSchema, response: { 200: okSchema(adminProjectSchema) } } },
    async (request) => ok(await projects.decide(requireAdmin(request), request.params.id, request.body)),
  );

  app.put(
    '/api/admin/projects/:id',
    { schema: { tags: ['admin'], security, params, body: projectInputSchema, response: { 200: okSchema(adminProjectSchema) } } },
    async (request) => ok(await projects.adminUpdate(requireAdmin(request), request.params.id, request.body)),
  );
};
