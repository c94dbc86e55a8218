import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { favoriteSchema, projectSchema, publicUserSchema, serviceCardSchema } from '#contract/catalog';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';
import { favoriteItemsQuerySchema, favoritesSyncSchema, type FavoriteService } from './service.ts';

const security = [{ bearer: [] }];
const list = okSchema(z.array(favoriteSchema));

/** SPEC §3/§4 favourites of the signed-in person (SPEC §5: favouriting requires being signed in). */
export const favoriteRoutes: FastifyPluginAsyncZod<{ favorites: FavoriteService }> = async (app, { favorites }) => {
  // 401 before validation: a guest learns nothing from a 400.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    requireUser(request);
  });

  app.get('/api/favorites', { schema: { tags: ['favorites'], security, response: { 200: list } } }, async (request) => {
    const result = await favorites.list(requireUser(request));
    return ok(result, result.length);
  });

  app.get(
    '/api/favorites/items',
    {
      schema: {
        tags: ['favorites'],
        security,
        querystring: favoriteItemsQuerySchema,
        response: { 200: okSchema(z.union([z.array(serviceCardSchema), z.array(projectSchema), z.array(publicUserSchema)])) },
      },
    },
    async (request) => {
      const result = await favorites.items(requireUser(request), request.query.type);
      return ok(result, result.length);
    },
  );

  app.post(
    '/api/favorites/toggle',
    { schema: { tags: ['favorites'], security, body: favoriteSchema, response: { 200: okSchema(z.object({ favorite: z.boolean() })) } } },
    async (request) => ok(await favorites.toggle(requireUser(request), request.body)),
  );

  app.post(
    '/api/favorites/sync',
    { schema: { tags: ['favorites'], security, body: favoritesSyncSchema, response: { 200: list } } },
    async (request) => {
      const result = await favorites.sync(requireUser(request), request.body.items);
      return ok(result, result.length);
    },
  );
};
