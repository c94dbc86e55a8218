import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { SearchSuggestions } from './service.ts';

/** The header's search suggestions, and their moderation (the /api/admin prefix is admins' only, see app.ts). */
export const searchSuggestionRoutes: FastifyPluginAsync<{ suggestions: SearchSuggestions; reads: ReadHandlers }> = async (
  app,
  { suggestions, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('search.suggestions', async ({ query }) => ok(await suggestions.popular(query.q)));

  on('admin.searchSuggestions.list', async ({ query }) => {
    const { q, hidden, limit } = query;
    const result = await suggestions.adminList({ q, hidden: hidden !== undefined, limit });
    return ok(result, result.length);
  });

  on('admin.searchSuggestions.hide', async ({ params, user }) => ok(await suggestions.hide(user, params.query)));
};
