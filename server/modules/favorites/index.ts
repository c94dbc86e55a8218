// A person's favourites.
export { FavoriteService } from './service.ts';
export { favoriteRoutes } from './routes.ts';
export { favoritesModule } from './module.ts';
