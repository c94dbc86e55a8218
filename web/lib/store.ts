import { useSyncExternalStore } from 'react';

// One small external store for client state that React reads with useSyncExternalStore (toasts, progress, the chat,
// favourites, the currency, …): a value, a way to change it, listeners told after each change.

export interface Store<T> {
  /** The current value (useSyncExternalStore's client snapshot). */
  get(): T;
  /** Replaces the value, or derives it from the current one; listeners are told unless it stayed the same (Object.is). */
  set(next: T | ((current: T) => T)): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** What server rendering and hydration see (the initial value unless `server` was given). */
  getServerSnapshot(): T;
}

/** What a component reads: a store, or an object that shows one (a feature's store with its own commands). */
export type ReadableStore<T> = Pick<Store<T>, 'get' | 'subscribe' | 'getServerSnapshot'>;

export interface StoreOptions<T> {
  /** The server (and hydration) snapshot, when it is not the initial value. */
  server?: T;
  /** Computes the first value at the first get() instead of `initial` (reads what only the browser has, lazily). */
  init?: () => T;
  /**
   * Runs when the first listener subscribes (to watch an outside source and set() from it); the function it returns
   * runs when the last one leaves.
   */
  start?: (store: Store<T>) => (() => void) | void;
}

export function createStore<T>(initial: T, options: StoreOptions<T> = {}): Store<T> {
  const { server = initial, start } = options;
  let value = initial;
  let init = options.init;
  const listeners = new Set<() => void>();
  let stop: (() => void) | void = undefined;

  const get = () => {
    if (init) {
      const load = init;
      init = undefined;
      value = load();
    }
    return value;
  };

  const store: Store<T> = {
    get,
    set(next) {
      const current = get();
      const updated = typeof next === 'function' ? (next as (current: T) => T)(current) : next;
      if (Object.is(updated, current)) return;
      value = updated;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1 && start) stop = start(store);
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        stop?.();
        stop = undefined;
      };
    },
    getServerSnapshot: () => server,
  };
  return store;
}

/**
 * The store's value in a component, re-rendered when it changes; with `selector`, only the selected part (which must
 * be a part of the value or a primitive, not a new object per call). Server rendering and hydration see the server
 * snapshot.
 */
export function useStore<T>(store: ReadableStore<T>): T;
export function useStore<T, S>(store: ReadableStore<T>, selector: (value: T) => S): S;
export function useStore<T, S>(store: ReadableStore<T>, selector?: (value: T) => S): T | S {
  const select = selector ?? ((value: T) => value);
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.getServerSnapshot()),
  );
}
