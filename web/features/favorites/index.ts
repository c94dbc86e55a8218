// Favourites: the list kept locally and with the account, and the heart button.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { FavoriteButton } from './favorite-button.tsx';
export { type FavoriteType } from './store.ts';
export { favorites, useFavorites } from './use-favorites.ts';
