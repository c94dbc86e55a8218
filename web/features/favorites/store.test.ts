import { describe, expect, it, vi } from 'vitest';
import {
  SYNCED_FOR_KEY,
  createFavoritesStore,
  normalizeFavorites,
  parseFavorites,
  setFavorite,
  toggleFavorite,
  type FavoriteItem,
  type FavoritesApi,
} from './store.ts';

const A: FavoriteItem = { id: 'a', type: 'service' };
const B: FavoriteItem = { id: 'b', type: 'project' };
const C: FavoriteItem = { id: 'c', type: 'freelancer' };

function memoryStorage(init: Record<string, string> = {}) {
  const data = new Map(Object.entries(init));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

function fakeApi(over: Partial<FavoritesApi> = {}): FavoritesApi {
  return {
    list: vi.fn(async () => []),
    sync: vi.fn(async (items: FavoriteItem[]) => ({ ok: true, result: items })),
    toggle: vi.fn(async () => ({ ok: true })),
    ...over,
  };
}

describe('pure list operations', () => {
  it('toggles: adds when absent, removes when present', () => {
    expect(toggleFavorite([], A)).toEqual([A]);
    expect(toggleFavorite([A, B], A)).toEqual([B]);
    // The same id of another type is another item.
    expect(toggleFavorite([A], { id: 'a', type: 'project' })).toEqual([A, { id: 'a', type: 'project' }]);
  });
  it('sets presence', () => {
    expect(setFavorite([A], A, true)).toEqual([A]);
    expect(setFavorite([A], A, false)).toEqual([]);
    expect(setFavorite([], B, true)).toEqual([B]);
  });
  it('reads only valid, unique items', () => {
    expect(parseFavorites(JSON.stringify([A, A, { id: 'x', type: 'order' }, { id: 5, type: 'service' }, null, B]))).toEqual([A, B]);
    expect(parseFavorites('not json')).toEqual([]);
    expect(parseFavorites(null)).toEqual([]);
    expect(normalizeFavorites({ a: 1 })).toEqual([]);
  });
});

describe('favourites store', () => {
  it('starts from localStorage and persists every toggle there', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([A]) });
    const api = fakeApi({ toggle: vi.fn(async () => ({ ok: true, favorite: true })) });
    const store = createFavoritesStore({ storage: () => storage, api });
    expect(store.getSnapshot()).toEqual([A]);
    expect(store.getServerSnapshot()).toEqual([]);

    const listener = vi.fn();
    store.subscribe(listener);
    await expect(store.toggle(B)).resolves.toBe(true);
    expect(api.toggle).toHaveBeenCalledWith(B);
    expect(JSON.parse(storage.data.get('favorites')!)).toEqual([A, B]);
    expect(listener).toHaveBeenCalled();
  });

  it('takes the server answer and puts the item back on failure', async () => {
    const notify = vi.fn();
    const storage = memoryStorage();
    let answer: { ok: boolean; favorite?: boolean; message?: string } = { ok: true, favorite: false };
    const store = createFavoritesStore({ storage: () => storage, api: fakeApi({ toggle: async () => answer }), notify });
    // The server says it is not a favourite after all.
    await expect(store.toggle(A)).resolves.toBe(false);
    expect(store.getSnapshot()).toEqual([]);
    answer = { ok: false, message: 'Нет связи' };
    await expect(store.toggle(A)).resolves.toBe(false);
    expect(store.getSnapshot()).toEqual([]);
    expect(notify).toHaveBeenCalledWith('Нет связи');
  });

  it('merges a never-synced local list into the account once, on sign-in', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([A, B]) });
    const api = fakeApi({ sync: vi.fn(async (items: FavoriteItem[]) => ({ ok: true, result: [C, ...items] })) });
    const store = createFavoritesStore({ storage: () => storage, api });
    const synced = vi.fn();
    store.onSynced(synced);
    await store.connect('u1');
    expect(api.sync).toHaveBeenCalledWith([A, B]);
    expect(store.getSnapshot()).toEqual([C, A, B]);
    expect(storage.data.get(SYNCED_FOR_KEY)).toBe('u1');
    expect(synced).toHaveBeenCalledWith(true);

    // Once per page load: connecting again does nothing.
    await store.connect('u1');
    expect(api.sync).toHaveBeenCalledTimes(1);
    expect(api.list).not.toHaveBeenCalled();
  });

  it('takes the account list on later visits and never merges one account into another', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([A]), [SYNCED_FOR_KEY]: 'u1' });
    const api = fakeApi({ list: vi.fn(async () => [B]) });
    const store = createFavoritesStore({ storage: () => storage, api });
    await store.connect('u2');
    expect(api.sync).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toEqual([B]);
    expect(storage.data.get(SYNCED_FOR_KEY)).toBe('u2');
  });

  it('keeps a toggle made while the account list was on its way (the list read before the toggle reached the server)', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([B]), [SYNCED_FOR_KEY]: 'u1' });
    let answer: (list: unknown) => void = () => {};
    const api = fakeApi({ list: vi.fn(() => new Promise<unknown>((resolve) => (answer = resolve))) });
    const store = createFavoritesStore({ storage: () => storage, api });
    const connected = store.connect('u1');
    // A heart clicked at once, and one taken off, while GET /api/favorites is under way.
    await store.toggle(A);
    await store.toggle(B);
    answer([B, C]);
    await connected;
    expect(store.getSnapshot()).toEqual([C, A]);
    expect(JSON.parse(storage.data.get('favorites')!)).toEqual([C, A]);
    // The next toggle, after the synchronisation, is not carried over again.
    await store.toggle(C);
    expect(store.getSnapshot()).toEqual([A]);
  });

  it('keeps a toggle made before the synchronisation began (a heart pressed as the code arrived)', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([]), [SYNCED_FOR_KEY]: 'u1' });
    let answer: (list: unknown) => void = () => {};
    let toggled: (result: { ok: boolean }) => void = () => {};
    const api = fakeApi({
      list: vi.fn(() => new Promise<unknown>((resolve) => (answer = resolve))),
      toggle: vi
        .fn<FavoritesApi['toggle']>(async () => ({ ok: true }))
        .mockImplementationOnce(() => new Promise((resolve) => (toggled = resolve))),
    });
    const store = createFavoritesStore({ storage: () => storage, api });
    const toggle = store.toggle(A);
    const connected = store.connect('u1');
    // The account's list was read before the toggle reached the server.
    answer([]);
    await connected;
    toggled({ ok: true });
    expect(await toggle).toBe(true);
    expect(store.getSnapshot()).toEqual([A]);
    // Synchronised now: the account's next list is taken as it is.
    await store.toggle(A);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('falls back to the account list when the sync answer has none, and retries after a failure', async () => {
    const storage = memoryStorage({ favorites: JSON.stringify([A]) });
    const sync = vi.fn().mockResolvedValueOnce({ ok: false, message: 'down' }).mockResolvedValueOnce({ ok: true, result: { merged: 1 } });
    const api = fakeApi({ sync, list: vi.fn(async () => [A, B]) });
    const store = createFavoritesStore({ storage: () => storage, api });
    await store.connect('u1');
    expect(store.getSnapshot()).toEqual([A]);
    expect(storage.data.get(SYNCED_FOR_KEY)).toBeUndefined();
    await store.connect('u1');
    expect(sync).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot()).toEqual([A, B]);
  });

  it('leaves a guest list alone and follows other tabs', () => {
    const storage = memoryStorage({ favorites: JSON.stringify([A]) });
    let onChange: (raw: string | null) => void = () => {};
    const unwatch = vi.fn();
    const store = createFavoritesStore({
      storage: () => storage,
      api: fakeApi(),
      watch: (cb) => {
        onChange = cb;
        return unwatch;
      },
    });
    void store.connect(null);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    onChange(JSON.stringify([B, C]));
    expect(store.getSnapshot()).toEqual([B, C]);
    expect(listener).toHaveBeenCalled();
    unsubscribe();
    expect(unwatch).toHaveBeenCalled();
  });
});
