import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, toast, toastStore } from './toast-store.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  toastStore.clear();
  vi.useRealTimers();
});

describe('toast store', () => {
  it('auto-closes after 3000 ms, then is removed after the 300 ms animation', () => {
    const store = createToastStore();
    const id = store.show('Ошибка сети');
    expect(store.getSnapshot()).toEqual([
      { id, message: 'Ошибка сети', type: 'error', duration: 3000, state: 'open', paused: false },
    ]);

    vi.advanceTimersByTime(2999);
    expect(store.getSnapshot()[0]?.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0]?.state).toBe('closing');
    vi.advanceTimersByTime(299);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('pauses on hover and resumes with the remaining time', () => {
    const store = createToastStore();
    const id = store.show('Сохранено', { type: 'success' });
    vi.advanceTimersByTime(1000);
    store.pause(id);
    expect(store.getSnapshot()[0]?.paused).toBe(true);

    vi.advanceTimersByTime(5000);
    expect(store.getSnapshot()[0]?.state).toBe('open');

    store.resume(id);
    expect(store.getSnapshot()[0]?.paused).toBe(false);
    vi.advanceTimersByTime(1999);
    expect(store.getSnapshot()[0]?.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0]?.state).toBe('closing');
    vi.advanceTimersByTime(300);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('keeps the remaining time across several pause/resume cycles and ignores repeated calls', () => {
    const store = createToastStore();
    const id = store.show('x');
    vi.advanceTimersByTime(1000);
    store.pause(id);
    store.pause(id);
    vi.advanceTimersByTime(10_000);
    store.resume(id);
    store.resume(id);
    vi.advanceTimersByTime(1500);
    store.pause(id);
    vi.advanceTimersByTime(10_000);
    store.resume(id);
    vi.advanceTimersByTime(499);
    expect(store.getSnapshot()[0]?.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0]?.state).toBe('closing');
  });

  it('uses error styling unless type is success', () => {
    const store = createToastStore();
    store.show('a');
    store.show('b', { type: 'success' });
    store.show('c', { type: 'error' });
    expect(store.getSnapshot().map((t) => t.type)).toEqual(['error', 'success', 'error']);
  });

  it('honours a custom duration', () => {
    const store = createToastStore();
    store.show('a', { duration: 500 });
    vi.advanceTimersByTime(500);
    expect(store.getSnapshot()[0]?.state).toBe('closing');
  });

  it('keeps toasts with duration 0 or Infinity until dismissed', () => {
    const store = createToastStore();
    const a = store.show('a', { duration: 0 });
    store.show('b', { duration: Infinity });
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot().map((t) => t.state)).toEqual(['open', 'open']);
    store.dismiss(a);
    vi.advanceTimersByTime(300);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['b']);
  });

  it('dismiss plays the exit animation once; pause/resume do nothing while closing', () => {
    const store = createToastStore();
    const id = store.show('a');
    store.dismiss(id);
    expect(store.getSnapshot()[0]?.state).toBe('closing');
    vi.advanceTimersByTime(200);
    store.dismiss(id); // must not restart the 300 ms
    store.pause(id);
    expect(store.getSnapshot()[0]?.paused).toBe(false);
    vi.advanceTimersByTime(100);
    expect(store.getSnapshot()).toHaveLength(0);
    store.dismiss(id); // unknown id: no throw
  });

  it('stacks toasts in order and notifies subscribers with new snapshots', () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const before = store.getSnapshot();
    store.show('first');
    store.show('second');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot()).not.toBe(before);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['first', 'second']);
    // Stable snapshot while nothing changes (required by useSyncExternalStore).
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    unsubscribe();
    store.show('third');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getServerSnapshot()).toEqual([]);
  });

  it('the shared toast() helper uses the default store', () => {
    const id = toast('Готово', { type: 'success' });
    expect(toastStore.getSnapshot()).toMatchObject([{ id, message: 'Готово', type: 'success' }]);
    vi.advanceTimersByTime(3300);
    expect(toastStore.getSnapshot()).toHaveLength(0);
  });
});
