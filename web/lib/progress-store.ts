import { PROGRESS_TICK_MS } from '#contract/constants';
import { createStore, type ReadableStore } from './store.ts';

/** Where the bar starts when something begins loading. */
export const PROGRESS_START = 10;
/** The value ticks approach (never reach) this ceiling while work is in flight. */
export const PROGRESS_CEILING = 90;
/** Fraction of the distance to the ceiling covered by each tick. */
export const PROGRESS_STEP = 0.2;
/** How long the bar stays at 100 after everything finished, before returning to 0 (hidden). */
export const PROGRESS_COMPLETE_MS = 200;

/** The bar's value 0..100 (get()); 0 means hidden. */
export interface ProgressStore extends ReadableStore<number> {
  /** One more call in flight. */
  start(): void;
  /** One call finished (the counter never goes below 0). */
  done(): void;
  /** Marks a route navigation as in progress (idempotent). */
  setNavigating(navigating: boolean): void;
  /** Runs start() now and done() when the promise settles; returns the same promise. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** True while any call is in flight or a navigation is pending. */
  isActive(): boolean;
  /** Stops timers and returns to the idle state (value 0). */
  reset(): void;
  /** The same as get() (useSyncExternalStore's name). */
  getSnapshot(): number;
}

export interface ProgressStoreOptions {
  tickMs?: number;
  completeMs?: number;
}

export function createProgressStore(options: ProgressStoreOptions = {}): ProgressStore {
  const tickMs = options.tickMs ?? PROGRESS_TICK_MS;
  const completeMs = options.completeMs ?? PROGRESS_COMPLETE_MS;
  const bar = createStore(0);
  let inFlight = 0;
  let navigating = false;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;

  const set = bar.set;

  const active = () => inFlight > 0 || navigating;

  const stopTicker = () => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  };
  const stopHide = () => {
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
  };

  /** Call after every change of inFlight / navigating. */
  const sync = (wasActive: boolean) => {
    const isActive = active();
    if (isActive === wasActive) return;
    if (isActive) {
      stopHide();
      set(PROGRESS_START);
      ticker = setInterval(() => {
        set((value) => value + (PROGRESS_CEILING - value) * PROGRESS_STEP);
      }, tickMs);
    } else {
      stopTicker();
      set(100);
      hideTimer = setTimeout(() => {
        hideTimer = undefined;
        set(0);
      }, completeMs);
    }
  };

  const store: ProgressStore = {
    start() {
      const was = active();
      inFlight += 1;
      sync(was);
    },
    done() {
      if (inFlight === 0) return;
      const was = active();
      inFlight -= 1;
      sync(was);
    },
    setNavigating(next) {
      const was = active();
      navigating = next;
      sync(was);
    },
    track(promise) {
      store.start();
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        store.done();
      };
      promise.then(finish, finish);
      return promise;
    },
    isActive: active,
    reset() {
      stopTicker();
      stopHide();
      inFlight = 0;
      navigating = false;
      set(0);
    },
    subscribe: bar.subscribe,
    get: bar.get,
    getSnapshot: bar.get,
    getServerSnapshot: bar.getServerSnapshot,
  };
  return store;
}

/** The app-wide progress store rendered by <ProgressBar />; the HTTP client calls start()/done(). */
export const progressStore: ProgressStore = createProgressStore();
