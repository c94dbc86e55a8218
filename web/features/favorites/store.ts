import { STORAGE_KEYS } from '#contract/constants';
import type { Favorite } from '#contract/catalog';
import { createStore } from '../../lib/store.ts';

// SPEC §3/§4 favourites: a list of {id, type} kept locally (localStorage "favorites"); toggling adds the item
// when absent and removes it when present. PRODUCT.md: when signed in, the list is the account's — every toggle
// goes to the server, and the list follows the user to another browser.
//
// Signing in on this browser: a list that no account has seen yet (kept before any sync) is merged into the
// account once (POST /api/favorites/sync); after that, and for another account signing in on the same browser,
// the account's list replaces the local one (GET /api/favorites) — one person's list never flows into another's.

export type FavoriteType = Favorite['type'];
export type FavoriteItem = Favorite;

const TYPES: readonly FavoriteType[] = ['service', 'project', 'freelancer'];
/** Whose account the local list was last synchronised with (absent: never). */
export const SYNCED_FOR_KEY = 'favoritesSyncedFor';

export const sameItem = (a: FavoriteItem, b: FavoriteItem) => a.id === b.id && a.type === b.type;
export const hasFavorite = (list: readonly FavoriteItem[], item: FavoriteItem) => list.some((x) => sameItem(x, item));

/** A valid, duplicate-free list from anything (stored JSON, an API answer); garbage becomes []. */
export function normalizeFavorites(value: unknown): FavoriteItem[] {
  if (!Array.isArray(value)) return [];
  const out: FavoriteItem[] = [];
  for (const x of value) {
    const item = x as Partial<FavoriteItem> | null;
    if (!item || typeof item.id !== 'string' || !item.id || !TYPES.includes(item.type as FavoriteType)) continue;
    const clean = { id: item.id, type: item.type as FavoriteType };
    if (!hasFavorite(out, clean)) out.push(clean);
  }
  return out;
}

export function parseFavorites(raw: string | null | undefined): FavoriteItem[] {
  if (!raw) return [];
  try {
    return normalizeFavorites(JSON.parse(raw));
  } catch {
    return [];
  }
}

/** SPEC §4: adds the item if absent, removes it if present. */
export function toggleFavorite(list: readonly FavoriteItem[], item: FavoriteItem): FavoriteItem[] {
  return hasFavorite(list, item) ? list.filter((x) => !sameItem(x, item)) : [...list, { id: item.id, type: item.type }];
}

/** The list with the item present (on) or absent (off). */
export function setFavorite(list: readonly FavoriteItem[], item: FavoriteItem, on: boolean): FavoriteItem[] {
  return hasFavorite(list, item) === on ? [...list] : toggleFavorite(list, item);
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface FavoritesApi {
  /** GET /api/favorites → the account's list. Throws on failure. */
  list(): Promise<unknown>;
  /** POST /api/favorites/sync {items} → the merged list (or anything else: then list() is asked). */
  sync(items: FavoriteItem[]): Promise<{ ok: boolean; result?: unknown; message?: string }>;
  /** POST /api/favorites/toggle {id, type} → {favorite}. */
  toggle(item: FavoriteItem): Promise<{ ok: boolean; favorite?: boolean; message?: string }>;
}

export interface FavoritesDeps {
  storage: () => StorageLike | null;
  api: FavoritesApi;
  /** Shows an error to the person (a toast in the app). */
  notify?: (message: string) => void;
  /** Hooks a listener to changes of the stored list made by other tabs; returns the unhook function. */
  watch?: (onChange: (raw: string | null) => void) => () => void;
}

const EMPTY: readonly FavoriteItem[] = Object.freeze([]);

export function createFavoritesStore(deps: FavoritesDeps) {
  let syncedWith: string | null = null;
  let syncing: Promise<void> | null = null;
  // Items toggled before a synchronisation with the account ended (under way, or not begun: a heart pressed as the
  // page's code arrived): the account's list it brings may be older than the toggle (read before the toggle reached
  // the server), so these keep the state they have here.
  const touched = new Map<string, FavoriteItem>();
  const syncListeners = new Set<(merged: boolean) => void>();
  const list = createStore<readonly FavoriteItem[]>(EMPTY, {
    // The stored list, read when first asked for (the server renders and hydrates with none).
    init() {
      try {
        return parseFavorites(deps.storage()?.getItem(STORAGE_KEYS.favorites));
      } catch {
        return EMPTY;
      }
    },
    // Changes made by other tabs, while anyone is listening.
    start: (self) => deps.watch?.((raw) => self.set(parseFavorites(raw))),
  });
  const read = list.get;

  const write = (next: readonly FavoriteItem[]) => {
    list.set(next);
    try {
      deps.storage()?.setItem(STORAGE_KEYS.favorites, JSON.stringify(next));
    } catch {
      /* storage full or blocked: the list lives for this page */
    }
  };

  const store = {
    subscribe: list.subscribe,
    get: read,
    /** The same as get() (useSyncExternalStore's name). */
    getSnapshot: read,
    getServerSnapshot: list.getServerSnapshot,

    has: (item: FavoriteItem) => hasFavorite(read(), item),

    /**
     * Toggles an item for a signed-in person: at once on the screen and in storage, then on the server, whose
     * answer wins; a failure puts the item back as it was. Returns whether it is a favourite now.
     */
    async toggle(item: FavoriteItem): Promise<boolean> {
      const wanted = !hasFavorite(read(), item);
      write(setFavorite(read(), item, wanted));
      if (syncing || syncedWith === null) touched.set(`${item.type}:${item.id}`, item);
      const answer = await deps.api.toggle(item).catch(() => ({ ok: false, message: undefined }) as const);
      if (!answer.ok) {
        write(setFavorite(read(), item, !wanted));
        deps.notify?.(answer.message || 'Не удалось изменить избранное');
        return !wanted;
      }
      const favorite = typeof answer.favorite === 'boolean' ? answer.favorite : wanted;
      if (favorite !== wanted) write(setFavorite(read(), item, favorite));
      return favorite;
    },

    /**
     * Synchronises with the signed-in account once per page load and account: merges a never-synced local
     * list into it (POST /api/favorites/sync), else takes the account's list (GET /api/favorites).
     * A guest (null) changes nothing: the local list stays as it is.
     */
    connect(userId: string | null): Promise<void> {
      if (!userId) {
        syncedWith = null;
        return Promise.resolve();
      }
      if (syncedWith === userId) return syncing ?? Promise.resolve();
      syncedWith = userId;
      const run = async () => {
        const storage = deps.storage();
        const syncedFor = storage?.getItem(SYNCED_FOR_KEY) ?? null;
        let next: FavoriteItem[] | null = null;
        const merge = syncedFor === null && read().length > 0;
        if (merge) {
          const answer = await deps.api.sync([...read()]);
          if (!answer.ok) throw new Error(answer.message);
          if (Array.isArray(answer.result)) next = normalizeFavorites(answer.result);
        }
        next ??= normalizeFavorites(await deps.api.list());
        for (const item of touched.values()) next = setFavorite(next, item, hasFavorite(read(), item));
        touched.clear();
        storage?.setItem(SYNCED_FOR_KEY, userId);
        write(next);
        syncListeners.forEach((l) => l(merge));
      };
      syncing = run()
        .catch(() => {
          // Try again on the next page load; meanwhile the local list is shown.
          if (syncedWith === userId) syncedWith = null;
        })
        .finally(() => {
          syncing = null;
          touched.clear();
        });
      return syncing;
    },

    /** Called after each completed synchronisation with the account; `merged`: the local list was sent to it. */
    onSynced(listener: (merged: boolean) => void) {
      syncListeners.add(listener);
      return () => void syncListeners.delete(listener);
    },
  };
  return store;
}

export type FavoritesStore = ReturnType<typeof createFavoritesStore>;
