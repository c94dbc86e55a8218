import type { Logger } from 'pino';

/**
 * Counts kept in memory and written in batches: page views, searches. A service's views feed its popularity, a
 * key of a dozen listing indexes, so writing the row on every view would write every one of those indexes each
 * time (and keep the table's visibility map dirty, which slows the index-only counts of listings). Batched, a
 * popular page costs one write per interval, whatever its traffic. Pending counts are written every `everyMs`
 * and when the app closes; a crash loses at most that interval's counts, which counters of popularity afford.
 */
export class Tally {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: [id: string, count: number][]) => Promise<void>,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly everyMs = 5_000,
  ) {}

  /** Counts one more of `id`; answers its count not yet written (this one included). */
  add(id: string): number {
    const n = (this.pending.get(id) ?? 0) + 1;
    this.pending.set(id, n);
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs).unref();
    return n;
  }

  /** The count of `id` not yet written. */
  unwritten(id: string): number {
    return this.pending.get(id) ?? 0;
  }

  /** Writes the pending counts now (one statement for all of them); a failed batch is kept for the next try. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const batch = [...this.pending];
    this.pending.clear();
    this.writing = this.writing.then(async () => {
      try {
        await this.write(batch);
      } catch (err) {
        this.log.warn({ err, ids: batch.length }, 'counts not written; kept for the next try');
        for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
        this.timer ??= setTimeout(() => void this.flush(), this.everyMs).unref();
      }
    });
    return this.writing;
  }
}
