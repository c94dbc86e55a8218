import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_GUARD_MS, STORAGE_KEYS } from '#contract/constants';
import { isChunkLoadError, reloadOnce, startVersionCheck, type StorageLike } from './reload-guard.ts';

function fakeStorage(initial: Record<string, string> = {}): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
  };
}

describe('reloadOnce', () => {
  beforeEach(() => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reloads when nothing is stored and records the time', () => {
    const storage = fakeStorage();
    const reload = vi.fn();
    expect(reloadOnce('chunk', storage, 1_000_000, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(storage.data.get(STORAGE_KEYS.reloadedAt)).toBe('1000000');
  });

  it('does not reload again within 10 s', () => {
    const storage = fakeStorage();
    const reload = vi.fn();
    reloadOnce('a', storage, 1_000_000, reload);
    expect(reloadOnce('b', storage, 1_000_000 + RELOAD_GUARD_MS - 1, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(storage.data.get(STORAGE_KEYS.reloadedAt)).toBe('1000000');
  });

  it('reloads again once the stored time is 10 s old or more', () => {
    const storage = fakeStorage({ [STORAGE_KEYS.reloadedAt]: '1000000' });
    const reload = vi.fn();
    expect(reloadOnce('c', storage, 1_000_000 + RELOAD_GUARD_MS, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(storage.data.get(STORAGE_KEYS.reloadedAt)).toBe(String(1_000_000 + RELOAD_GUARD_MS));
  });

  it('treats garbage or future timestamps as absent', () => {
    const reload = vi.fn();
    expect(reloadOnce('x', fakeStorage({ [STORAGE_KEYS.reloadedAt]: 'abc' }), 5000, reload)).toBe(true);
    expect(reloadOnce('x', fakeStorage({ [STORAGE_KEYS.reloadedAt]: '999999999' }), 5000, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload without usable storage', () => {
    const reload = vi.fn();
    expect(reloadOnce('x', null, 5000, reload)).toBe(false);
    const throwing: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(reloadOnce('x', throwing, 5000, reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('is safe to call with defaults outside the browser', () => {
    // No sessionStorage in node → no reload, and location is never touched.
    expect(reloadOnce('ssr')).toBe(false);
  });
});

describe('isChunkLoadError', () => {
  it('recognises chunk load failures of every browser', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Loading chunk 12 failed. (ChunkLoadError)'))).toBe(true);
    const named = new Error('Loading chunk 3 failed');
    named.name = 'ChunkLoadError';
    expect(isChunkLoadError(named)).toBe(true);
    expect(isChunkLoadError({ message: 'failed to fetch dynamically imported module' })).toBe(true);
    expect(isChunkLoadError('Importing a module script failed.')).toBe(true);
  });
  it('ignores other errors', () => {
    expect(isChunkLoadError(new Error('Network error'))).toBe(false);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
    expect(isChunkLoadError(42)).toBe(false);
    expect(isChunkLoadError({ message: 1 })).toBe(false);
  });
});

describe('startVersionCheck', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every interval and calls onNewVersion once when the id changes', async () => {
    const ids = ['v1', 'v1', 'v2', 'v3'];
    const fetchLatest = vi.fn(async () => ({ id: ids.shift() ?? 'v9' }));
    const onNewVersion = vi.fn();
    const stop = startVersionCheck('v1', { fetchLatest, intervalMs: 1000, onNewVersion });

    expect(fetchLatest).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchLatest).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchLatest).toHaveBeenCalledTimes(2);
    expect(onNewVersion).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchLatest).toHaveBeenCalledTimes(3);
    expect(onNewVersion).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchLatest).toHaveBeenCalledTimes(3);
    expect(onNewVersion).toHaveBeenCalledTimes(1);
    stop();
  });

  it('ignores fetch failures and null answers', async () => {
    const answers: Array<() => Promise<{ id: string } | null>> = [
      () => Promise.reject(new Error('offline')),
      () => Promise.resolve(null),
      () => Promise.resolve({ id: '' }),
      () => Promise.resolve({ id: 'v2' }),
    ];
    const fetchLatest = vi.fn(() => (answers.shift() ?? (() => Promise.resolve(null)))());
    const onNewVersion = vi.fn();
    startVersionCheck('v1', { fetchLatest, intervalMs: 500, onNewVersion });
    await vi.advanceTimersByTimeAsync(1500);
    expect(fetchLatest).toHaveBeenCalledTimes(3);
    expect(onNewVersion).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(onNewVersion).toHaveBeenCalledTimes(1);
  });

  it('uses VERSION_CHECK_MS by default and stops when asked', async () => {
    const fetchLatest = vi.fn(async () => ({ id: 'v2' }));
    const onNewVersion = vi.fn();
    const stop = startVersionCheck('v1', { fetchLatest, onNewVersion });
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(fetchLatest).not.toHaveBeenCalled();
    stop();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(fetchLatest).not.toHaveBeenCalled();
    expect(onNewVersion).not.toHaveBeenCalled();
  });

  it('does not report when stopped while a fetch is in flight', async () => {
    let resolve!: (v: { id: string }) => void;
    const fetchLatest = vi.fn(() => new Promise<{ id: string }>((r) => (resolve = r)));
    const onNewVersion = vi.fn();
    const stop = startVersionCheck('v1', { fetchLatest, intervalMs: 100, onNewVersion });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchLatest).toHaveBeenCalledTimes(1);
    stop();
    resolve({ id: 'v2' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(onNewVersion).not.toHaveBeenCalled();
    expect(fetchLatest).toHaveBeenCalledTimes(1);
  });
});
