import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categorySchema, citySchema, countrySchema, okSchema, subCategorySchema, tagSchema } from '#contract/api';
import { requireUser } from '../../lib/auth.ts';
import type { LookupService } from './service.ts';

// The lists are the same for everybody and change rarely: each answer is serialised once and cached
// (LookupService), then sent as it is. The schemas still document the answers.
const JSON_TYPE = 'application/json; charset=utf-8';
// A pre-serialised answer bypasses the (typed) serialiser.
const serialized = (json: string) => json as never;

export const lookupRoutes: FastifyPluginAsyncZod<{ lookups: LookupService }> = async (app, { lookups }) => {
  const list = <T extends z.ZodType>(item: T) => ({ response: { 200: okSchema(z.array(item)) } });

  app.get('/api/cities/', { schema: { tags: ['lookups'], ...list(citySchema) } }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(serialized(await lookups.answer('cities'))),
  );
  app.get('/api/countries/', { schema: { tags: ['lookups'], ...list(countrySchema) } }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(serialized(await lookups.answer('countries'))),
  );
  app.get('/api/categories/', { schema: { tags: ['lookups'], ...list(categorySchema) } }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(serialized(await lookups.answer('categories'))),
  );
  app.get(
    '/api/categories/sub',
    { schema: { tags: ['lookups'], ...list(subCategorySchema) } },
    async (_request, reply) => reply.type(JSON_TYPE).send(serialized(await lookups.answer('subCategories'))),
  );
  app.get(
    '/api/tag',
    { schema: { tags: ['lookups'], security: [{ bearer: [] }], ...list(tagSchema) } },
    async (request, reply) => {
      requireUser(request);
      return reply.type(JSON_TYPE).send(serialized(await lookups.answer('tags')));
    },
  );
};
