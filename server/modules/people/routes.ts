import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { freelancersQuerySchema, publicUserSchema } from '#contract/catalog';
import { ok } from '../../lib/http.ts';
import { publicProfileSchema, type PeopleService } from './service.ts';
import { publicListingSchema } from '#contract/api';

/** The freelancers listing and a person's public page (/user/{id}); both open to everybody. */
export const peopleRoutes: FastifyPluginAsyncZod<{ people: PeopleService }> = async (app, { people }) => {
  app.get(
    '/api/freelancers',
    { schema: { tags: ['people'], querystring: freelancersQuerySchema, response: { 200: publicListingSchema(publicUserSchema) } } },
    async (request) => {
      const { result, total, total_exact, next } = await people.freelancers(request.query);
      return { ...ok(result, total), total, total_exact, next };
    },
  );

  // A page lookup: a malformed id is a 404 like an unknown one (the service checks it), not a 400.
  // The static /api/users/me/ route wins over this one.
  app.get(
    '/api/users/:id',
    { schema: { tags: ['people'], params: z.object({ id: z.string().max(100) }), response: { 200: okSchema(publicProfileSchema) } } },
    async (request) => ok(await people.profile(request.params.id, request.user)),
  );
};
