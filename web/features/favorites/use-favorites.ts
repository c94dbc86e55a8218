import { useEffect } from 'react';
import { STORAGE_KEYS } from '#contract/constants';
import { api } from '../../lib/api.ts';
import { useStore } from '../../lib/store.ts';
import { toast } from '../../lib/toast-store.ts';
import { useShell } from '../../lib/use-shell.ts';
import { createFavoritesStore, hasFavorite, type FavoriteItem, type StorageLike } from './store.ts';

const localStore = (): StorageLike | null => {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
};

/** The app's favourites (web/features/favorites/store.ts) wired to localStorage, the API and toasts. */
export const favorites = createFavoritesStore({
  storage: localStore,
  api: {
    list: async () => (await api.read('favorites.list', {}, { fresh: true })).result,
    async sync(items) {
      const { data, error } = await api.write('favorites.sync', { body: { items } });
      return error ? { ok: false, message: error.message } : { ok: true, result: data.result };
    },
    async toggle(item) {
      const { data, error } = await api.write('favorites.toggle', { body: item });
      if (error) return { ok: false, message: error.message };
      const answer = data as unknown as { result?: { favorite?: boolean }; favorite?: boolean };
      return { ok: true, favorite: answer.result?.favorite ?? answer.favorite };
    },
  },
  notify: (message) => toast(message),
  watch(onChange) {
    const listener = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.favorites) onChange(event.newValue);
    };
    window.addEventListener('storage', listener);
    return () => window.removeEventListener('storage', listener);
  },
});

/** The favourites list (empty during server rendering and hydration), synchronised with the signed-in account. */
export function useFavorites(): readonly FavoriteItem[] {
  const { user } = useShell();
  const userId = user?._id ?? null;
  useEffect(() => void favorites.connect(userId), [userId]);
  return useStore(favorites);
}

export function useIsFavorite(item: FavoriteItem): boolean {
  return hasFavorite(useFavorites(), item);
}
