import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { visitorOf } from '../../platform/listing/visitors.ts';
import type { ServiceCatalog } from './service.ts';
import type { SearchSuggestions } from '../search/index.ts';

/** The public catalogue of services and the seller's own ones (/profile/items). */
export const servicesRoutes: FastifyPluginAsync<{ catalog: ServiceCatalog; suggestions: SearchSuggestions; reads: ReadHandlers }> = async (
  app,
  { catalog, suggestions, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('services.list', async ({ query, user, ip }) => {
    const { result, total, total_exact, next, corrected, partial } = await catalog.list(query);
    // A first page that found something makes its search a candidate for the header's suggestions (a corrected
    // one, its correction).
    if (query.q && !query.cursor && total > 0 && !partial)
      await suggestions.record(corrected ?? query.q, visitorOf(user, ip));
    return {
      ...ok(result, total),
      total,
      total_exact,
      next,
      ...(corrected ? { corrected } : {}),
      ...(partial ? { partial } : {}),
    };
  });

  on('services.mine', async ({ user }) => {
    const result = await catalog.mine(user);
    return ok(result, result.length);
  });

  on('services.get', async ({ params, user, ip }) => ok(await catalog.get(user, params.id, visitorOf(user, ip))));

  on('services.ofSeller', async ({ params, query }) => {
    const { cards, total } = await catalog.ofSeller(params.id, query.limit);
    return ok(cards, total);
  });

  on('services.create', async ({ body, user }) => ok(await catalog.create(user, body)));

  on('services.update', async ({ params, body, user }) => ok(await catalog.update(user, params.id, body)));

  on('services.remove', async ({ params, user }) => {
    await catalog.remove(user, params.id);
    return ok(true as const);
  });

  on('services.changeStatus', async ({ params, body, user }) => ok(await catalog.changeStatus(user, params.id, body.action)));
};
