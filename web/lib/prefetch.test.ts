import { describe, expect, it, vi } from 'vitest';
import { getPrefetchAllowed, getServerPrefetchAllowed, shouldPrefetch, subscribeConnection } from './prefetch.ts';

describe('shouldPrefetch', () => {
  it('allows prefetch when nothing is known', () => {
    expect(shouldPrefetch()).toBe(true);
    expect(shouldPrefetch(undefined)).toBe(true);
    expect(shouldPrefetch(null)).toBe(true);
    expect(shouldPrefetch({})).toBe(true);
  });
  it('allows fast connections', () => {
    expect(shouldPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(shouldPrefetch({ effectiveType: '3g', saveData: false })).toBe(true);
  });
  it('refuses on save-data', () => {
    expect(shouldPrefetch({ saveData: true })).toBe(false);
    expect(shouldPrefetch({ saveData: true, effectiveType: '4g' })).toBe(false);
  });
  it('refuses on 2g and slow-2g', () => {
    expect(shouldPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(shouldPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
  });
});

describe('connection store helpers', () => {
  it('reads navigator.connection', () => {
    expect(getPrefetchAllowed(undefined)).toBe(true);
    expect(getPrefetchAllowed({})).toBe(true);
    expect(getPrefetchAllowed({ connection: { effectiveType: 'slow-2g' } })).toBe(false);
    expect(getServerPrefetchAllowed()).toBe(true);
  });
  it('is SSR-safe in node (no navigator.connection)', () => {
    expect(typeof getPrefetchAllowed()).toBe('boolean');
    expect(() => subscribeConnection(() => {})()).not.toThrow();
  });
  it('subscribes to connection change events', () => {
    const listeners = new Set<() => void>();
    const connection = {
      effectiveType: '4g',
      addEventListener: (_: 'change', l: () => void) => listeners.add(l),
      removeEventListener: (_: 'change', l: () => void) => listeners.delete(l),
    };
    const nav = { connection };
    const onChange = vi.fn();
    const off = subscribeConnection(onChange, nav);
    connection.effectiveType = '2g';
    listeners.forEach((l) => l());
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(getPrefetchAllowed(nav)).toBe(false);
    off();
    expect(listeners.size).toBe(0);
  });
});
