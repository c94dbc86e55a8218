import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressStore, progressStore } from './progress-store.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  progressStore.reset();
  vi.useRealTimers();
});

describe('progress store', () => {
  it('is idle at 0', () => {
    const store = createProgressStore();
    expect(store.getSnapshot()).toBe(0);
    expect(store.isActive()).toBe(false);
    expect(store.getServerSnapshot()).toBe(0);
  });

  it('starts at 10 and ticks every 500 ms toward 90 without reaching 100', () => {
    const store = createProgressStore();
    store.start();
    expect(store.getSnapshot()).toBe(10);
    vi.advanceTimersByTime(499);
    expect(store.getSnapshot()).toBe(10);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toBeCloseTo(26); // 10 + 80 * 0.2
    vi.advanceTimersByTime(500);
    expect(store.getSnapshot()).toBeCloseTo(38.8); // 26 + 64 * 0.2
    let prev = store.getSnapshot();
    for (let i = 0; i < 100; i++) {
      vi.advanceTimersByTime(500);
      const v = store.getSnapshot();
      expect(v).toBeGreaterThanOrEqual(prev);
      expect(v).toBeLessThan(100);
      prev = v;
    }
    expect(prev).toBeLessThanOrEqual(90);
  });

  it('jumps to 100 when everything completes and returns to 0 after ~200 ms', () => {
    const store = createProgressStore();
    store.start();
    store.start();
    vi.advanceTimersByTime(1000);
    store.done();
    expect(store.getSnapshot()).toBeLessThan(100);
    expect(store.isActive()).toBe(true);
    store.done();
    expect(store.getSnapshot()).toBe(100);
    expect(store.isActive()).toBe(false);
    vi.advanceTimersByTime(199);
    expect(store.getSnapshot()).toBe(100);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toBe(0);
    // No more ticks once idle.
    vi.advanceTimersByTime(5000);
    expect(store.getSnapshot()).toBe(0);
  });

  it('never lets the counter go below 0', () => {
    const store = createProgressStore();
    store.done();
    store.done();
    expect(store.getSnapshot()).toBe(0);
    store.start();
    expect(store.isActive()).toBe(true);
    store.done();
    expect(store.isActive()).toBe(false);
    store.done();
    store.start();
    expect(store.isActive()).toBe(true); // one extra done() did not "bank" a negative count
  });

  it('tracks navigation together with calls', () => {
    const store = createProgressStore();
    store.setNavigating(true);
    expect(store.getSnapshot()).toBe(10);
    store.start();
    store.setNavigating(true); // idempotent
    vi.advanceTimersByTime(500);
    expect(store.getSnapshot()).toBeCloseTo(26); // a single ticker
    store.setNavigating(false);
    expect(store.isActive()).toBe(true);
    store.done();
    expect(store.getSnapshot()).toBe(100);
    vi.advanceTimersByTime(200);
    expect(store.getSnapshot()).toBe(0);
  });

  it('restarts from 10 when new work begins during the completion flash', () => {
    const store = createProgressStore();
    store.start();
    store.done();
    expect(store.getSnapshot()).toBe(100);
    vi.advanceTimersByTime(100);
    store.start();
    expect(store.getSnapshot()).toBe(10);
    vi.advanceTimersByTime(200); // the old hide timer must not fire
    expect(store.getSnapshot()).toBeGreaterThan(0);
  });

  it('track() wraps a promise, including rejections', async () => {
    const store = createProgressStore();
    const ok = store.track(Promise.resolve(1));
    const failing = store.track(Promise.reject(new Error('boom')));
    expect(store.isActive()).toBe(true);
    await expect(ok).resolves.toBe(1);
    await expect(failing).rejects.toThrow('boom');
    expect(store.isActive()).toBe(false);
    expect(store.getSnapshot()).toBe(100);
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getSnapshot()).toBe(0);
  });

  it('notifies subscribers on change', () => {
    const store = createProgressStore();
    const listener = vi.fn();
    const off = store.subscribe(listener);
    store.start();
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(listener).toHaveBeenCalledTimes(2);
    off();
    vi.advanceTimersByTime(500);
    expect(listener).toHaveBeenCalledTimes(2);
    store.reset();
  });
});
