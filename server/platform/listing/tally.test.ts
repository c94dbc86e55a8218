import { describe, expect, it } from 'vitest';
import { Tally } from './tally.ts';

const quiet = { warn: () => {} };

describe('Tally', () => {
  it('adds counts per id and writes them in one batch', async () => {
    const batches: [string, number][][] = [];
    const tally = new Tally(async (batch) => void batches.push(batch), quiet, 60_000);
    expect(tally.add('a')).toBe(1);
    expect(tally.add('a')).toBe(2);
    expect(tally.add('b')).toBe(1);
    await tally.flush();
    expect(batches).toEqual([[['a', 2], ['b', 1]]]);
    expect(tally.unwritten('a')).toBe(0);
    await tally.flush();
    expect(batches).toHaveLength(1);
  });

  it('keeps a batch that failed to be written and writes it with the next one', async () => {
    const batches: [string, number][][] = [];
    let fail = true;
    const tally = new Tally(async (batch) => {
      if (fail) throw new Error('database down');
      batches.push(batch);
    }, quiet, 60_000);
    tally.add('a');
    await tally.flush();
    expect(tally.unwritten('a')).toBe(1);
    fail = false;
    tally.add('a');
    await tally.flush();
    expect(batches).toEqual([[['a', 2]]]);
  });

  it('writes by itself after its interval', async () => {
    const batches: [string, number][][] = [];
    const tally = new Tally(async (batch) => void batches.push(batch), quiet, 10);
    tally.add('a');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toEqual([[['a', 1]]]);
  });
});
