/**
 * A queue that hands its jobs to `run` in batches, one batch at a time, in the order they were pushed.
 *
 * The chat's socket fan-out goes through one of these per instance: every get_counters is computed by a query that
 * starts after the previous batch's events left, so the last counters a person receives are never older than an
 * earlier one (two independent fan-outs could otherwise finish in the opposite order of their queries), and a burst
 * of messages costs one query per batch instead of several per message and member.
 */
export class SerialBatcher<J> {
  private queue: J[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly run: (batch: J[]) => Promise<void>,
    /** Called with whatever `run` throws (it should settle its own jobs first). */
    private readonly onError: (err: unknown) => void,
    private readonly maxBatch = 100,
  ) {}

  push(job: J): void {
    this.queue.push(job);
    this.running ??= this.drain();
  }

  /** Resolves once every job pushed so far has been run. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Started from push(): let the jobs pushed in the same tick join the first batch.
    await Promise.resolve();
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.run(batch);
      } catch (err) {
        this.onError(err);
      }
    }
    this.running = null;
  }
}
