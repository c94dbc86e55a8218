import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categorySchema, citySchema, countrySchema, okSchema, subCategorySchema, tagSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';
import type { LookupService } from './service.ts';

export const lookupRoutes: FastifyPluginAsyncZod<{ lookups: LookupService }> = async (app, { lookups }) => {
  const list = <T extends z.ZodType>(item: T) => ({ response: { 200: okSchema(z.array(item)) } });

  app.get('/api/cities/', { schema: { tags: ['lookups'], ...list(citySchema) } }, async () => {
    const result = await lookups.cities();
    return ok(result, result.length);
  });
  app.get('/api/countries/', { schema: { tags: ['lookups'], ...list(countrySchema) } }, async () => {
    const result = await lookups.countries();
    return ok(result, result.length);
  });
  app.get('/api/categories/', { schema: { tags: ['lookups'], ...list(categorySchema) } }, async () => {
    const result = await lookups.categories();
    return ok(result, result.length);
  });
  app.get('/api/categories/sub', { schema: { tags: ['lookups'], ...list(subCategorySchema) } }, async () => {
    const result = await lookups.subCategories();
    return ok(result, result.length);
  });
  app.get(
    '/api/tag',
    { schema: { tags: ['lookups'], security: [{ bearer: [] }], ...list(tagSchema) } },
    async (request) => {
      requireUser(request);
      const result = await lookups.tags();
      return ok(result, result.length);
    },
  );
};
