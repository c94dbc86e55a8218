import { defineModule } from '../../platform/module.ts';
import { FavoriteService, forgetFavoritesOf } from './service.ts';
import { favoriteRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    favorites: FavoriteService;
  }
}

export const favoritesModule = defineModule({
  name: 'favorites',
  create: ({ db, services: { realtime, projects, platform } }) => ({
    favorites: new FavoriteService({ db, presence: realtime, projects, withTx: platform.withTx }),
  }),
  routes: (app, { services: { favorites }, reads }) => app.register(favoriteRoutes, { favorites, reads }),
  // A deleted project's favourites go with it, in its transaction.
  subscribe: ({ services: { projects } }) => projects.onRemoved((tx, projectId) => forgetFavoritesOf(tx, 'project', projectId)),
});
