import { and, eq, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/system.ts';

interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

const TICK_MS = 30_000;

/**
 * Runs recurring jobs over the `jobs` table. A run is claimed by moving next_run_at forward in one
 * conditional UPDATE: of several instances sharing the database exactly one wins each due run.
 */
export class Scheduler {
  private readonly jobs: Job[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  add(job: Job) {
    this.jobs.push(job);
  }

  async start() {
    for (const job of this.jobs) {
      await this.db.insert(jobs).values({ name: job.name }).onConflictDoNothing();
    }
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick() {
    this.running = Promise.all(this.jobs.map((job) => this.runIfDue(job)));
  }

  /** Claims and runs one job now if it is due (also used at startup to force a first run). */
  async runIfDue(job: Job, force = false) {
    const next = sql`now() + ${`${job.everyMs} milliseconds`}::interval`;
    const claimed = await this.db
      .update(jobs)
      .set({ nextRunAt: next, lastRunAt: sql`now()` })
      .where(force ? eq(jobs.name, job.name) : and(eq(jobs.name, job.name), lte(jobs.nextRunAt, sql`now()`)))
      .returning({ name: jobs.name });
    if (claimed.length === 0) return;
    try {
      await job.run();
      await this.db.update(jobs).set({ lastError: null }).where(eq(jobs.name, job.name));
    } catch (err) {
      this.log.error({ err, job: job.name }, 'job failed');
      await this.db.update(jobs).set({ lastError: String(err) }).where(eq(jobs.name, job.name));
    }
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.running.catch(() => {});
  }
}
