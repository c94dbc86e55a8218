/**
 * V8's collections on this thread (the server's, in a benchmark that runs it in-process) while a run lasts, from
 * `PerformanceObserver`'s `gc` entries. At an even 100 req/s a scavenge that takes 10–30 ms instead of 1 decides the
 * p99 (bench/README, session 60), so the even-rate rows of `npm run bench` print what the collector did meanwhile.
 * Render threads have heaps of their own and are not seen here.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { median } from './lib.ts';

export interface Collections {
  /** Young-generation collections' durations, in ms. */
  scavenges: number[];
  /** Every other kind's (mark-compact, incremental marking, weak callbacks), in ms. */
  others: number[];
}

/** Records the collections from now until `stop()`. */
export function watchCollections(): { stop(): Collections } {
  const collections: Collections = { scavenges: [], others: [] };
  const record = (entries: PerformanceEntry[]) => {
    for (const entry of entries) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      (kind === constants.NODE_PERFORMANCE_GC_MINOR ? collections.scavenges : collections.others).push(entry.duration);
    }
  };
  const observer = new PerformanceObserver((list) => record(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      record(observer.takeRecords()); // entries not yet delivered to the callback
      observer.disconnect();
      return collections;
    },
  };
}

/** "4 scavenges (median 1.1 ms, longest 1.5 ms), 1 other collection (longest 6.2 ms)". */
export function describeCollections({ scavenges, others }: Collections): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const parts = [
    scavenges.length === 0
      ? 'no scavenge'
      : `${scavenges.length} scavenge${scavenges.length === 1 ? '' : 's'} (median ${ms(median(scavenges))}, longest ${ms(Math.max(...scavenges))})`,
  ];
  if (others.length > 0) parts.push(`${others.length} other collection${others.length === 1 ? '' : 's'} (longest ${ms(Math.max(...others))})`);
  return parts.join(', ');
}
