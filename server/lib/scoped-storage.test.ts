import { executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { ScopedStorage } from './scoped-storage.ts';

/** Whether promises are tracked now: with promise hooks, a continuation runs under an async id of its own; without, 0. */
const promisesTracked = async () => (await Promise.resolve().then(() => executionAsyncId())) !== 0;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ScopedStorage (ADR 084)', () => {
  it('gives each run its store across its awaits, and none outside', async () => {
    const storage = new ScopedStorage<string>();
    const seen: (string | undefined)[] = [];
    const work = (name: string) =>
      storage.run(name, async () => {
        seen.push(storage.getStore());
        await tick();
        seen.push(storage.getStore());
        await Promise.resolve();
        return storage.getStore();
      });
    expect(await Promise.all([work('a'), work('b')])).toEqual(['a', 'b']);
    expect(seen.sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(storage.getStore()).toBeUndefined();
  });

  it('tracks promises only while a run is under way, whichever run ends last', async () => {
    expect(await promisesTracked()).toBe(false);
    const storage = new ScopedStorage<string>();
    let endOuter!: () => void;
    const outerEnds = new Promise<void>((resolve) => (endOuter = resolve));
    const outer = storage.run('outer', async () => {
      await outerEnds;
      return storage.getStore();
    });
    await storage.run('inner', async () => {
      expect(await promisesTracked()).toBe(true);
    });
    // The inner run has ended, the outer has not: its store still goes with its promises.
    expect(await promisesTracked()).toBe(true);
    endOuter();
    expect(await outer).toBe('outer');
    expect(await promisesTracked()).toBe(false);
  });

  it('ends a run whose work throws, at once or later', async () => {
    const storage = new ScopedStorage<number>();
    await expect(
      storage.run(1, () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    await expect(
      storage.run(2, async () => {
        await tick();
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
    expect(await promisesTracked()).toBe(false);
    expect(await storage.run(3, async () => storage.getStore())).toBe(3);
  });
});
