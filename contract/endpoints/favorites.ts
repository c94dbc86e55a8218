import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { favoriteItemsQuerySchema, favoriteSchema, favoritesSyncSchema, projectSchema, publicUserSchema, recentViewsQuerySchema, serviceCardSchema } from '../catalog.ts';

const tags = ['favorites'];
const list = okSchema(z.array(favoriteSchema));

/** SPEC §3/§4 favourites of the signed-in person (SPEC §5: favouriting requires being signed in). */
export const favoriteEndpoints = defineEndpoints({
  'favorites.list': { access: 'user', tags, response: list },
  /** The cards of one type's favourites that are public now, newest first. */
  'favorites.items': {
    access: 'user',
    tags,
    query: favoriteItemsQuerySchema,
    response: okSchema(z.union([z.array(serviceCardSchema), z.array(projectSchema), z.array(publicUserSchema)])),
  },
  /** The public services the person opened last, the latest first (the signed-in home page, issue 15). */
  'favorites.recent': { access: 'user', tags, query: recentViewsQuerySchema, response: okSchema(z.array(serviceCardSchema)) },
  'favorites.toggle': { access: 'user', tags, body: favoriteSchema, response: okSchema(z.object({ favorite: z.boolean() })) },
  /** A list kept in the browser before signing in, merged into the account's: the merged list. */
  'favorites.sync': { access: 'user', tags, body: favoritesSyncSchema, response: list },
});
