import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { projectInputSchema, projectSchema, projectsQuerySchema } from '#contract/catalog';
import { ok } from '../../lib/http.ts';
import { requireConfirmed, requireUser } from '../../lib/auth.ts';
import { publicListingSchema } from '#contract/api';
import { myProjectsQuerySchema, type ProjectService } from './service.ts';
import { visitorOf } from '../../platform/listing/visitors.ts';

const security = [{ bearer: [] }];
/** A project is looked up like a page: a malformed id is a 404 (the service checks it), not a 400. */
const params = z.object({ id: z.string().max(100) });
/** A keyset page: SPEC's `{ status, result, total }` plus the cursor of the next page (null on the last). */
// Signed-in routes answer 401/403 before looking at the request: a guest learns nothing from a 400.
const signedIn = {
  preValidation: async (request: FastifyRequest) => void requireUser(request),
};
const confirmed = {
  preValidation: async (request: FastifyRequest) => void requireConfirmed(request),
};

export const pageSchema = <T extends z.ZodType>(item: T) => okSchema(z.array(item)).extend({ next: z.string().nullable() });

export const projectRoutes: FastifyPluginAsyncZod<{ projects: ProjectService }> = async (app, { projects }) => {
  app.get(
    '/api/projects',
    { schema: { tags: ['projects'], querystring: projectsQuerySchema, response: { 200: publicListingSchema(projectSchema) } } },
    async (request) => {
      const { result, total, total_exact, next } = await projects.list(request.query);
      return { ...ok(result, total), total, total_exact, next };
    },
  );

  app.get(
    '/api/projects/my',
    { ...signedIn, schema: { tags: ['projects'], security, querystring: myProjectsQuerySchema, response: { 200: pageSchema(projectSchema) } } },
    async (request) => {
      const { result, total, next } = await projects.mine(requireUser(request), request.query);
      return { ...ok(result, total), next };
    },
  );

  app.get(
    '/api/projects/:id',
    { schema: { tags: ['projects'], params, response: { 200: okSchema(projectSchema) } } },
    async (request) => ok(await projects.get(request.params.id, request.user, visitorOf(request.user, request.ip))),
  );

  app.post(
    '/api/projects',
    { ...confirmed, schema: { tags: ['projects'], security, body: projectInputSchema, response: { 200: okSchema(projectSchema) } } },
    async (request) => ok(await projects.create(requireConfirmed(request), request.body)),
  );

  app.put(
    '/api/projects/:id',
    { ...confirmed, schema: { tags: ['projects'], security, params, body: projectInputSchema, response: { 200: okSchema(projectSchema) } } },
    async (request) => ok(await projects.update(requireConfirmed(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/projects/:id',
    { ...signedIn, schema: { tags: ['projects'], security, params, response: { 200: okSchema(z.object({ _id: z.string() })) } } },
    async (request) => {
      await projects.remove(requireUser(request), request.params.id);
      return ok({ _id: request.params.id });
    },
  );
};
