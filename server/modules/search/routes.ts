import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminSearchSuggestionSchema, adminSearchSuggestionsQuerySchema } from '#contract/catalog';
import { okSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import type { SearchSuggestions } from './service.ts';

const security = [{ bearer: [] }];

/** The header's search suggestions, and their moderation (the /api/admin prefix is admins' only, see app.ts). */
export const searchSuggestionRoutes: FastifyPluginAsyncZod<{ suggestions: SearchSuggestions }> = async (app, { suggestions }) => {
  app.get(
    '/api/search/suggestions',
    {
      schema: {
        tags: ['services'],
        description: 'Popular searches starting with `q` (the most popular ones without it), for the header search box.',
        querystring: z.object({ q: z.string().max(100).optional() }),
        response: { 200: okSchema(z.array(z.string())) },
      },
    },
    async (request) => ok(await suggestions.popular(request.query.q)),
  );

  app.get(
    '/api/admin/search-suggestions',
    {
      schema: {
        tags: ['admin'],
        security,
        description: 'The suggestions offered now (or, with `hidden`, those removed), most searched first.',
        querystring: adminSearchSuggestionsQuerySchema,
        response: { 200: okSchema(z.array(adminSearchSuggestionSchema)) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { q, hidden, limit } = request.query;
      const result = await suggestions.adminList({ q, hidden: hidden !== undefined, limit });
      return ok(result, result.length);
    },
  );

  app.delete(
    '/api/admin/search-suggestions/:query',
    {
      schema: {
        tags: ['admin'],
        security,
        description: 'Removes a suggestion for good: it is never offered again, however often it is searched.',
        params: z.object({ query: z.string().max(200) }),
        response: { 200: okSchema(z.string()) },
      },
    },
    async (request) => ok(await suggestions.hide(requireAdmin(request), request.params.query)),
  );
};
