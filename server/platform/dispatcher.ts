import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isServerEvent, serverEventSchemas, type ServerEvent, type ServerEventArgs } from '#contract/events';
import type { Db } from '../db/client.ts';
import { momentParam, statement } from '../db/prepared.ts';
import { outbox, type OutboxRow } from './schema.ts';
import type { Letter } from '../lib/mail.ts';
import { systemActor } from './actor.ts';
import { systemClock, type Clock } from './clock.ts';
import type { LetterPayload, SocketPayload } from './outbox.ts';
import type { TxContext, WithTx } from './tx.ts';
import { ProcessIdentity } from './instance.ts';

/** What a job handler gets besides its payload. */
export interface JobContext {
  row: OutboxRow;
  /**
   * A transaction (system actor) that also completes this job: its changes and the job's completion commit
   * together, so a job whose work is database writes takes effect exactly once, even if its instance dies or its
   * lease runs out. Call it once; a job completed elsewhere in the meantime rolls it back.
   */
  withTx<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T>;
}

export type JobHandler<P = unknown> = (payload: P, job: JobContext) => Promise<unknown> | unknown;

/** The socket transport: sends a server event to every socket of these users (realtime.emitToUsers). */
export type SocketTransport = <E extends ServerEvent>(userIds: string[], event: E, ...args: ServerEventArgs<E>) => void;

const socketRowSchema = z.object({ userIds: z.array(z.string()), payload: z.unknown() }) satisfies z.ZodType<SocketPayload>;

export interface DispatcherOptions {
  db: Db;
  withTx: WithTx;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock?: Clock;
  /** Who leases the rows (ADR 061); a process of its own by default. */
  identity?: ProcessIdentity;
  /** How often due rows are looked for (delayed jobs, rows of other instances, retries). */
  pollMs?: number;
  /** Rows claimed at once; they run concurrently. */
  batchSize?: number;
  /** How long a claimed row stays with its instance; after it, a crashed instance's rows are claimed again. */
  leaseMs?: number;
  /** Claims before a row is given up as failed. */
  maxAttempts?: number;
  /** First retry delay, doubled on each further attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export const DISPATCHER_DEFAULTS = {
  pollMs: 1000,
  batchSize: 20,
  leaseMs: 2 * 60_000,
  maxAttempts: 10,
  backoffMs: 1000,
  maxBackoffMs: 60 * 60_000,
} as const;

/**
 * Thrown by a handler that cannot run here and now (this server no longer listens, so its HTTP loopback is gone):
 * the row is handed back without counting the attempt, due again after `backoffMs`, for whichever instance (or the
 * next start) claims it then.
 */
export class JobDeferred extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'JobDeferred';
  }
}

/** Thrown inside a job's transaction when its row is no longer ours: the transaction rolls back. */
class LeaseLost extends Error {
  constructor(row: OutboxRow) {
    super(`outbox row ${row.id} (${row.kind} ${row.name}) was completed or claimed again elsewhere`);
  }
}

/**
 * Delivers outbox rows. It claims due rows with a lease (`FOR UPDATE SKIP LOCKED`, so instances never take the
 * same row), runs their handlers outside any transaction, then deletes each row (or moves a recurring job to its
 * next run). A failure is retried with exponential backoff; after `maxAttempts` the row stays as `failed` with its
 * error. Delivery is at least once: a handler that outlives its lease, or an instance that dies after the handler
 * but before the row is completed, means a second run; job handlers that write through `job.withTx` are exactly
 * once for what they write. A claimed row frees its dedupe key (a recurring job's row keeps it): a job written with
 * that key while the handler runs, which may have looked already, is kept and runs after it (ADR 092).
 */
export class Dispatcher {
  private readonly db: Db;
  private readonly clock: Clock;
  readonly identity: ProcessIdentity;
  private readonly opts: Required<Omit<DispatcherOptions, 'db' | 'withTx' | 'log' | 'clock' | 'identity'>>;
  private readonly jobs = new Map<string, JobHandler<never>>();
  private readonly recurring = new Map<string, number>();
  private sockets: SocketTransport | null = null;
  private letters: ((to: string, letter: Letter) => Promise<void>) | null = null;

  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private draining: Promise<number> | null = null;
  /** Set by a nudge during a pass: claim again before the pass ends. */
  private again = false;
  private wake: (() => void) | null = null;
  /** Rows whose handlers succeeded, deleted together. */
  private finished: OutboxRow[] = [];

  constructor(private readonly deps: DispatcherOptions) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
    this.identity = deps.identity ?? new ProcessIdentity();
    const { db: _db, withTx: _withTx, log: _log, clock: _clock, identity: _identity, ...rest } = deps;
    this.opts = { ...DISPATCHER_DEFAULTS, ...rest };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Registration
  // ------------------------------------------------------------------------------------------------------------

  /** The handler of the jobs named `name` (`outbox.job(name, payload, …)`). */
  handle<P>(name: string, fn: JobHandler<P>): this {
    if (this.jobs.has(name)) throw new Error(`outbox: job "${name}" has a handler already`);
    this.jobs.set(name, fn as JobHandler<never>);
    return this;
  }

  /**
   * A job that runs every `everyMs`, once across instances: one pending row (dedupe key = name) that is moved
   * to its next due time whenever a run ends. `start()` writes the row if it is missing, due at once.
   */
  every(name: string, everyMs: number, fn: JobHandler<unknown>): this {
    this.handle(name, fn);
    this.recurring.set(name, everyMs);
    return this;
  }

  /** The transports of the built-in kinds. */
  deliverSockets(fn: SocketTransport): this {
    this.sockets = fn;
    return this;
  }

  deliverLetters(fn: (to: string, letter: Letter) => Promise<void>): this {
    this.letters = fn;
    return this;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Running
  // ------------------------------------------------------------------------------------------------------------

  /** Writes the missing rows of recurring jobs, delivers what is due and starts polling. */
  async start(): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    const now = this.clock.now();
    if (this.recurring.size) {
      await this.db
        .insert(outbox)
        .values([...this.recurring.keys()].map((name) => ({ kind: 'job' as const, name, payload: {}, dueAt: now, dedupeKey: name })))
        .onConflictDoNothing();
    }
    this.timer = setInterval(() => void this.runDue(), this.opts.pollMs);
    this.timer.unref();
    this.nudge();
  }

  /**
   * Hands back at once the rows this instance's previous process had claimed and never completed (it crashed or was
   * killed): they would otherwise wait out their lease. Call it once this process has established its identity
   * (it listens on the instance's address); rows leased by other instances are left alone. Answers how many.
   */
  async reclaimOwn(): Promise<number> {
    const { instanceId, bootId } = this.identity;
    const released = await this.db
      .update(outbox)
      .set({ lockedUntil: null })
      .where(
        and(
          eq(outbox.state, 'pending'),
          eq(outbox.leasedBy, instanceId),
          sql`${outbox.leasedBoot} is distinct from ${bootId}`,
          sql`${outbox.lockedUntil} > ${this.clock.now()}`,
        ),
      )
      .returning({ id: outbox.id });
    if (released.length) {
      this.deps.log.info({ rows: released.length, instanceId }, "outbox: took back the rows this instance's previous process had claimed");
      this.nudge();
    }
    return released.length;
  }

  /** Looks for due rows soon (after a commit that wrote some). Does nothing before start() or after stop(). */
  nudge(): void {
    if (!this.started || this.stopped) return;
    setImmediate(() => void this.runDue());
  }

  /**
   * Makes a recurring job (or any pending row with this dedupe key) due now, unless an instance holds it at the
   * moment. Answers whether a row was moved.
   */
  async trigger(dedupeKey: string): Promise<boolean> {
    const now = this.clock.now();
    const moved = await this.db
      .update(outbox)
      .set({ dueAt: now })
      .where(and(eq(outbox.dedupeKey, dedupeKey), eq(outbox.state, 'pending'), unleased(now)))
      .returning({ id: outbox.id });
    if (moved.length) this.nudge();
    return moved.length > 0;
  }

  /**
   * Claims and runs due rows until none is left and no handler is running; answers how many ran. Up to
   * `batchSize` handlers run at once, and a free slot is filled without waiting for the others, so a slow letter
   * does not hold back the socket events committed after it. A call during a pass makes the pass look again.
   */
  runDue(): Promise<number> {
    if (this.draining) {
      this.again = true;
      this.wake?.();
      return this.draining;
    }
    this.draining = this.pass().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async pass(): Promise<number> {
    let ran = 0;
    const running = new Set<Promise<void>>();
    for (;;) {
      const room = this.stopped ? 0 : this.opts.batchSize - running.size;
      let full = room === 0;
      if (room > 0) {
        this.again = false;
        let rows: OutboxRow[] = [];
        try {
          rows = await this.claim(room);
        } catch (err) {
          this.deps.log.error({ err }, 'outbox: claiming rows failed');
        }
        for (const row of rows) {
          const done: Promise<void> = this.run(row).then((finished) => {
            running.delete(done);
            if (finished) this.finished.push(row);
          });
          running.add(done);
        }
        ran += rows.length;
        full = rows.length === room;
      }
      await this.deleteFinished();
      if (running.size === 0 && (this.stopped || !(full || this.again))) break;
      // Perhaps more are due (a full claim, a nudge): fill the free slots.
      if (!this.stopped && running.size < this.opts.batchSize && (full || this.again)) continue;
      // Full: wait for a free slot. Otherwise nothing else was due: wait for the handlers, or for a nudge.
      const wake = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([full ? Promise.race(running) : Promise.all(running), wake]);
      this.wake = null;
    }
    await this.deleteFinished();
    return ran;
  }

  /** Stops claiming; resolves once the handlers in flight have finished and their rows are settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.draining;
  }

  private async claim(limit: number): Promise<OutboxRow[]> {
    const now = this.clock.now();
    const rows = await claimDue(this.db).execute({
      now: now.toISOString(),
      limit,
      lockedUntil: new Date(now.getTime() + this.opts.leaseMs).toISOString(),
      leasedBy: this.identity.instanceId,
      leasedBoot: this.identity.bootId,
      recurring: [...this.recurring.keys()],
    });
    // Socket events of one transaction go out in the order they were written.
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Our claim of the row: the attempt number changes with every claim. */
  private ours(row: OutboxRow) {
    return and(eq(outbox.id, row.id), eq(outbox.attempts, row.attempts), eq(outbox.state, 'pending'));
  }

  /** Runs one row; answers true when it succeeded and still has to be deleted (by deleteFinished). */
  private async run(row: OutboxRow): Promise<boolean> {
    let completed = false;
    const job: JobContext = {
      row,
      withTx: (fn) =>
        this.deps.withTx(systemActor(`job:${row.name}`), async (ctx) => {
          const value = await fn(ctx);
          if (!(await this.complete(ctx.tx, row))) throw new LeaseLost(row);
          completed = true;
          return value;
        }),
    };
    try {
      await this.execute(row, job);
    } catch (err) {
      if (err instanceof JobDeferred) {
        await this.defer(row, err).catch((e: unknown) => this.deps.log.error({ err: e, id: row.id }, 'outbox: handing a row back failed'));
        return false;
      }
      await this.failed(row, err).catch((e: unknown) => this.deps.log.error({ err: e, id: row.id }, 'outbox: recording a failure failed'));
      return false;
    }
    if (completed) return false;
    if (!this.isRecurring(row)) return true;
    try {
      if (!(await this.complete(this.db, row))) this.lostLease([row]);
    } catch (err) {
      // The row stays leased and runs again after the lease: at least once.
      this.deps.log.error({ err, id: row.id }, 'outbox: completing a row failed');
    }
    return false;
  }

  /** Deletes the rows that ran, in one statement (a busy transaction's socket events are many small rows). */
  private async deleteFinished(): Promise<void> {
    const rows = this.finished;
    if (rows.length === 0) return;
    this.finished = [];
    try {
      const claims = sql.join(rows.map((r) => sql`(${r.id}::bigint, ${r.attempts}::integer)`), sql`, `);
      const deleted = await this.db
        .delete(outbox)
        .where(and(eq(outbox.state, 'pending'), sql`(${outbox.id}, ${outbox.attempts}) in (${claims})`))
        .returning({ id: outbox.id });
      if (deleted.length < rows.length) {
        const gone = new Set(deleted.map((d) => d.id));
        this.lostLease(rows.filter((r) => !gone.has(r.id)));
      }
    } catch (err) {
      // They stay leased and run again after the lease: at least once.
      this.deps.log.error({ err, ids: rows.map((r) => r.id) }, 'outbox: completing rows failed');
    }
  }

  private lostLease(rows: OutboxRow[]) {
    for (const row of rows) {
      this.deps.log.warn({ id: row.id, kind: row.kind, name: row.name }, 'outbox: row was claimed again before it was completed (lease too short?)');
    }
  }

  private isRecurring(row: OutboxRow): boolean {
    return row.kind === 'job' && row.dedupeKey === row.name && this.recurring.has(row.name);
  }

  private async execute(row: OutboxRow, job: JobContext): Promise<void> {
    switch (row.kind) {
      case 'socket': {
        if (!this.sockets) throw new Error('no socket transport');
        if (!isServerEvent(row.name)) throw new Error(`unknown socket event "${row.name}"`);
        const { userIds, payload } = socketRowSchema.parse(row.payload);
        sendSocketEvent(this.sockets, userIds, row.name, payload);
        return;
      }
      case 'letter': {
        if (!this.letters) throw new Error('no mail transport');
        const { to, letter } = row.payload as LetterPayload;
        await this.letters(to, letter);
        return;
      }
      case 'job': {
        const handler = this.jobs.get(row.name);
        if (!handler) throw new Error(`no handler for job "${row.name}"`);
        await handler(row.payload as never, job);
        return;
      }
      default:
        throw new Error(`unknown outbox kind "${String(row.kind)}"`);
    }
  }

  /** Deletes a finished row, or moves a recurring job to its next run. False when the row is no longer ours. */
  private async complete(db: Db, row: OutboxRow): Promise<boolean> {
    if (this.isRecurring(row)) {
      const next = new Date(this.clock.now().getTime() + this.recurring.get(row.name)!);
      const moved = await db
        .update(outbox)
        .set({ dueAt: next, attempts: 0, lastError: null, lockedUntil: null })
        .where(this.ours(row))
        .returning({ id: outbox.id });
      return moved.length > 0;
    }
    const deleted = await db.delete(outbox).where(this.ours(row)).returning({ id: outbox.id });
    return deleted.length > 0;
  }

  /** Hands a deferred row back: its attempt does not count, and it is due again after the first backoff. */
  private async defer(row: OutboxRow, err: JobDeferred): Promise<void> {
    this.deps.log.info({ id: row.id, kind: row.kind, name: row.name, reason: err.message }, 'outbox: row handed back for later');
    await this.db
      .update(outbox)
      .set({ dueAt: new Date(this.clock.now().getTime() + this.opts.backoffMs), attempts: row.attempts - 1, lockedUntil: null })
      .where(this.ours(row));
  }

  private async failed(row: OutboxRow, err: unknown): Promise<void> {
    const message = (err instanceof Error ? err.message || err.name : String(err)).slice(0, 2000);
    const now = this.clock.now().getTime();
    const where = { id: row.id, kind: row.kind, name: row.name, attempts: row.attempts };
    if (row.attempts >= this.opts.maxAttempts) {
      if (this.isRecurring(row)) {
        // A recurring job is not given up: its error stays on the row until a later run succeeds.
        this.deps.log.error({ ...where, err }, 'outbox: recurring job failed on every attempt; next regular run scheduled');
        await this.db
          .update(outbox)
          .set({ dueAt: new Date(now + this.recurring.get(row.name)!), attempts: 0, lastError: message, lockedUntil: null })
          .where(this.ours(row));
        return;
      }
      this.deps.log.error({ ...where, err }, 'outbox: row failed on its last attempt; kept as failed');
      await this.db.update(outbox).set({ state: 'failed', lastError: message, lockedUntil: null }).where(this.ours(row));
      return;
    }
    const delay = backoffMs(row.attempts, this.opts);
    this.deps.log.warn({ ...where, err, retryInMs: delay }, 'outbox: row failed; will retry');
    await this.db
      .update(outbox)
      .set({ dueAt: new Date(now + delay), lastError: message, lockedUntil: null })
      .where(this.ours(row));
  }
}

/** Sends a socket row's event once its payload has passed the event's schema (a malformed row fails visibly). */
function sendSocketEvent<E extends ServerEvent>(send: SocketTransport, userIds: string[], event: E, payload: unknown) {
  send(userIds, event, ...serverEventSchemas[event].parse([payload]));
}

/** The wait before the retry that follows attempt number `attempts` (1, 2, 4 … times backoffMs, capped). */
export function backoffMs(attempts: number, opts: { backoffMs: number; maxBackoffMs: number } = DISPATCHER_DEFAULTS): number {
  return Math.min(opts.maxBackoffMs, opts.backoffMs * 2 ** (attempts - 1));
}

/** A row no instance holds (its lease ran out, or it never had one) at `now`. */
const unleased = (now: Date | SQL) => or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now));

/**
 * The due rows nobody holds, leased to this process (`claim`): every pass of every instance makes it, built once
 * (server/db/prepared.ts). The times are ISO text.
 */
const claimDue = statement((db) => {
  const p = sql.placeholder;
  const now = momentParam('now');
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.state, 'pending'), lte(outbox.dueAt, now), unleased(now)))
    .orderBy(asc(outbox.dueAt), asc(outbox.id))
    .limit(p('limit'))
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({
      lockedUntil: momentParam('lockedUntil'),
      attempts: sql`${outbox.attempts} + 1`,
      leasedBy: sql`${p('leasedBy')}`,
      leasedBoot: sql`${p('leasedBoot')}`,
      // Freed for the next job of the key (Dispatcher's note); a recurring job's row is the one of its name.
      dedupeKey: sql`case when ${outbox.name} = any(${p('recurring')}::text[]) then ${outbox.dedupeKey} end`,
    })
    .where(inArray(outbox.id, due))
    .returning()
    .prepare('outbox_claim');
});
