import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';
import { endpointsOf, type ReadHandlers, type RouteExtras } from '../../platform/endpoints.ts';
import type { FavoriteService } from './service.ts';

// 401 before validation: a guest learns nothing from a 400. (The contract's access is checked again with the
// handler, the same way for the pages' in-process reads.)
const signedIn: RouteExtras = { preValidation: async (request: FastifyRequest) => void requireUser(request) };

/** SPEC §3/§4 favourites of the signed-in person (SPEC §5: favouriting requires being signed in). */
export const favoriteRoutes: FastifyPluginAsync<{ favorites: FavoriteService; reads: ReadHandlers }> = async (app, { favorites, reads }) => {
  const { on } = endpointsOf(app, reads);

  on(
    'favorites.list',
    async ({ user }) => {
      const result = await favorites.list(user);
      return ok(result, result.length);
    },
    signedIn,
  );

  on(
    'favorites.items',
    async ({ query, user }) => {
      const result = await favorites.items(user, query.type);
      return ok(result, result.length);
    },
    signedIn,
  );

  on('favorites.toggle', async ({ body, user }) => ok(await favorites.toggle(user, body)), signedIn);

  on(
    'favorites.sync',
    async ({ body, user }) => {
      const result = await favorites.sync(user, body.items);
      return ok(result, result.length);
    },
    signedIn,
  );
};
