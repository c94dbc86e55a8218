import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { FavoriteService } from './service.ts';

// 401 before validation: a guest learns nothing from a 400. (The contract's access is checked again with the
// handler, the same way for the pages' in-process reads.)

/** SPEC §3/§4 favourites of the signed-in person (SPEC §5: favouriting requires being signed in). */
export const favoriteRoutes: FastifyPluginAsync<{ favorites: FavoriteService; reads: ReadHandlers }> = async (
  app,
  { favorites, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('favorites.list', async ({ user }) => {
    const result = await favorites.list(user);
    return ok(result, result.length);
  });

  on('favorites.items', async ({ query, user }) => {
    const result = await favorites.items(user, query.type, query.limit);
    return ok(result, result.length);
  });

  on('favorites.recent', async ({ query, user }) => {
    const result = await favorites.recent(user, query.limit);
    return ok(result, result.length);
  });

  on('favorites.toggle', async ({ body, user }) => ok(await favorites.toggle(user, body)));

  on('favorites.sync', async ({ body, user }) => {
    const result = await favorites.sync(user, body.items);
    return ok(result, result.length);
  });
};
