import { TOAST_CLOSE_ANIMATION_MS, TOAST_DURATION_MS } from '#contract/constants';
import { createStore, type ReadableStore } from './store.ts';

export type ToastType = 'success' | 'error';
/** 'open' while shown; 'closing' during the exit animation, after which the toast is removed. */
export type ToastState = 'open' | 'closing';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  /** Total auto-close time in ms; 0 or Infinity means the toast stays until dismissed. */
  duration: number;
  state: ToastState;
  paused: boolean;
}

export interface ToastOptions {
  /** Default 'error' (SPEC §9: toasts are error-styled unless marked as success). */
  type?: ToastType;
  /** Default TOAST_DURATION_MS (3000). */
  duration?: number;
}

export interface ToastStore extends ReadableStore<readonly Toast[]> {
  /** Shows a toast and returns its id. */
  show(message: string, options?: ToastOptions): number;
  /** Starts the exit animation (state 'closing'), then removes the toast after closeAnimationMs. */
  dismiss(id: number): void;
  /** Stops the auto-close timer, keeping the remaining time. */
  pause(id: number): void;
  /** Restarts the auto-close timer with the remaining time. */
  resume(id: number): void;
  /** Removes every toast at once and cancels all timers. */
  clear(): void;
  /** The same as get() (useSyncExternalStore's name). */
  getSnapshot(): readonly Toast[];
}

interface Entry {
  toast: Toast;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Time left before auto-close, valid while paused / before the timer is armed. */
  remaining: number;
  /** When the current timer was armed (Date.now()). */
  startedAt: number;
}

const EMPTY: readonly Toast[] = Object.freeze([]);

export function createToastStore(options: { closeAnimationMs?: number } = {}): ToastStore {
  const closeAnimationMs = options.closeAnimationMs ?? TOAST_CLOSE_ANIMATION_MS;
  const entries = new Map<number, Entry>();
  const toasts = createStore<readonly Toast[]>(EMPTY);
  let nextId = 1;

  const emit = () => toasts.set(entries.size === 0 ? EMPTY : Array.from(entries.values(), (e) => e.toast));

  const update = (entry: Entry, patch: Partial<Toast>) => {
    entry.toast = { ...entry.toast, ...patch };
  };

  const stopTimer = (entry: Entry) => {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
  };

  const autoCloses = (entry: Entry) => Number.isFinite(entry.toast.duration) && entry.toast.duration > 0;

  const arm = (entry: Entry) => {
    stopTimer(entry);
    if (!autoCloses(entry)) return;
    entry.startedAt = Date.now();
    const id = entry.toast.id;
    entry.timer = setTimeout(() => store.dismiss(id), Math.max(0, entry.remaining));
  };

  const store: ToastStore = {
    show(message, opts = {}) {
      const id = nextId++;
      const duration = opts.duration ?? TOAST_DURATION_MS;
      const entry: Entry = {
        toast: { id, message, type: opts.type === 'success' ? 'success' : 'error', duration, state: 'open', paused: false },
        timer: undefined,
        remaining: duration,
        startedAt: Date.now(),
      };
      entries.set(id, entry);
      arm(entry);
      emit();
      return id;
    },

    dismiss(id) {
      const entry = entries.get(id);
      if (!entry || entry.toast.state === 'closing') return;
      stopTimer(entry);
      update(entry, { state: 'closing', paused: false });
      entry.timer = setTimeout(() => {
        entries.delete(id);
        emit();
      }, closeAnimationMs);
      emit();
    },

    pause(id) {
      const entry = entries.get(id);
      if (!entry || entry.toast.state !== 'open' || entry.toast.paused) return;
      if (entry.timer !== undefined) entry.remaining -= Date.now() - entry.startedAt;
      stopTimer(entry);
      update(entry, { paused: true });
      emit();
    },

    resume(id) {
      const entry = entries.get(id);
      if (!entry || entry.toast.state !== 'open' || !entry.toast.paused) return;
      update(entry, { paused: false });
      arm(entry);
      emit();
    },

    clear() {
      if (entries.size === 0) return;
      for (const entry of entries.values()) stopTimer(entry);
      entries.clear();
      emit();
    },

    subscribe: toasts.subscribe,
    get: toasts.get,
    getSnapshot: toasts.get,
    getServerSnapshot: toasts.getServerSnapshot,
  };

  return store;
}

/** The app-wide toast store rendered by <Toaster />. */
export const toastStore: ToastStore = createToastStore();

/** Shows a toast (error-styled unless `type: 'success'`); returns its id for dismissToast(). */
export function toast(message: string, options?: ToastOptions): number {
  return toastStore.show(message, options);
}

export function dismissToast(id: number): void {
  toastStore.dismiss(id);
}
