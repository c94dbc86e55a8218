import { setImmediate as immediate, setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { describeCollections, watchCollections } from './gc.ts';

/** About 100 MB of short-lived objects: more than any young generation holds, so V8 must scavenge. */
function churn(): number {
  let kept: object[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    kept.push({ i, text: `item ${i}` });
    if (kept.length === 1000) kept = [];
  }
  return kept.length;
}

describe('watchCollections', () => {
  it('records the scavenges made while it watches, and none after it stopped', async () => {
    const watch = watchCollections();
    churn();
    await immediate(); // Node reports a collection from a callback it queues after it
    const seen = watch.stop();
    expect(seen.scavenges.length).toBeGreaterThan(0);
    expect(seen.scavenges.every((ms) => ms >= 0 && ms < 1000)).toBe(true);

    const before = seen.scavenges.length;
    churn();
    await delay(50); // time for any report to be delivered
    expect(seen.scavenges).toHaveLength(before);
  });
});

describe('describeCollections', () => {
  it('gives the count, the median and the longest of each kind', () => {
    expect(describeCollections({ scavenges: [1.04, 2.96, 1.5], others: [] })).toBe('3 scavenges (median 1.5 ms, longest 3.0 ms)');
    expect(describeCollections({ scavenges: [0.7], others: [6.2, 4] })).toBe(
      '1 scavenge (median 0.7 ms, longest 0.7 ms), 2 other collections (longest 6.2 ms)',
    );
    expect(describeCollections({ scavenges: [], others: [] })).toBe('no scavenge');
  });
});
