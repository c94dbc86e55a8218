import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { statement } from '../db/prepared.ts';
import { idempotencyKeys } from './schema.ts';
import { HttpError, badRequest } from '../lib/http.ts';
import type { Clock } from './clock.ts';
import { ProcessIdentity } from './instance.ts';

// Idempotency-Key (issue 12): a request that may move money carries a key of the client's choosing. The first
// request with a key claims it (a row committed before the work starts), does the work and stores its answer; a
// later one with the same key and the same body gets that answer again, with its status; the same key with
// another body is refused. A duplicate that arrives while the first is still being answered waits for it a
// little, then is told the request is being processed. A claim whose request died (a crash between the claim
// and the answer) is taken over (ADR 061): at once when it was this instance's previous process, else once its
// lease, renewed while the work runs, has run out. The work commits its own transaction before the answer is
// stored, so a takeover may repeat work that did commit: the work itself is safe to repeat (an order is paid once).

export const IDEMPOTENCY_MESSAGES = {
  required: 'Нужен заголовок Idempotency-Key (от 1 до 100 символов)',
  reused: 'Этот Idempotency-Key уже использован для другого запроса',
  inFlight: 'Запрос уже обрабатывается',
} as const;

/** The header, checked: 1..100 printable ASCII characters; 400 otherwise. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (typeof key !== 'string' || key.length < 1 || key.length > 100 || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest(IDEMPOTENCY_MESSAGES.required, { 'Idempotency-Key': [IDEMPOTENCY_MESSAGES.required] });
  }
  return key;
}

/** A stable hash of a JSON value: keys sorted, so the same body in another key order is the same request. */
export function requestHash(scope: string, body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
        : v;
  return createHash('sha256').update(scope).update('\n').update(JSON.stringify(canonical(body ?? null))).digest('hex');
}

export interface IdempotentAnswer<T> {
  status: number;
  body: T | { status: number; message: string; errors?: Record<string, string[]> };
  /** Whether this answer was stored before (a repeat). */
  replayed: boolean;
}

export interface IdempotencyOptions {
  /** How long a duplicate waits for the first request's answer. */
  waitMs?: number;
  /** A claim made before claims had owners (ADR 061), older than this without an answer, is taken over. */
  staleMs?: number;
  /** How long a claim holds unless its process renews it (every third of it, while the work runs). */
  leaseMs?: number;
  /** The process that claims (ADR 061). */
  identity?: ProcessIdentity;
}

const WAIT_MS = 5_000;
const STALE_MS = 60_000;
const LEASE_MS = 15_000;
const POLL_MS = 25;

export class Idempotency {
  private readonly identity: ProcessIdentity;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly opts: IdempotencyOptions = {},
  ) {
    this.identity = opts.identity ?? new ProcessIdentity();
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
  }

  /**
   * Runs `work` once per (user, key): answers its result (status 200) or its HttpError (stored as its status and
   * body, so a repeat gets the same refusal). Any other failure forgets the claim (the client may retry) and is
   * thrown.
   */
  async run<T>(userId: string, key: string, scope: string, body: unknown, work: () => Promise<T>): Promise<IdempotentAnswer<T>> {
    const hash = requestHash(scope, body);
    const claimed = await this.claim(userId, key, scope, hash);
    if (!claimed) return this.stored<T>(userId, key, scope, hash);
    // While the work runs its claim is renewed: a live claim is never taken for a dead one.
    const renewal = setInterval(() => void this.renew(userId, key).catch(() => {}), Math.max(1, Math.floor(this.leaseMs / 3)));
    renewal.unref();
    try {
      const result = await work();
      await this.store(userId, key, 200, result);
      return { status: 200, body: result, replayed: false };
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) {
        const answer = { status: err.statusCode, message: err.message, ...(err.errors ? { errors: err.errors } : {}) };
        await this.store(userId, key, err.statusCode, answer);
        return { status: err.statusCode, body: answer, replayed: false };
      }
      await this.db.delete(idempotencyKeys).where(this.mine(userId, key));
      throw err;
    } finally {
      clearInterval(renewal);
    }
  }

  /** This process's claim of a key, unanswered. */
  private mine(userId: string, key: string) {
    return and(
      eq(idempotencyKeys.userId, userId),
      eq(idempotencyKeys.key, key),
      eq(idempotencyKeys.ownerBoot, this.identity.bootId),
      isNull(idempotencyKeys.response),
    );
  }

  private async renew(userId: string, key: string): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ leaseUntil: new Date(this.clock.now().getTime() + this.leaseMs) })
      .where(this.mine(userId, key));
  }

  /** The claim's owner columns: this process, for a lease's time. */
  private owner(now: Date) {
    return { ownerInstance: this.identity.instanceId, ownerBoot: this.identity.bootId, leaseUntil: new Date(now.getTime() + this.leaseMs) };
  }

  /** Claims the key: true when this request is the first (or takes over a dead claim). */
  private async claim(userId: string, key: string, scope: string, hash: string): Promise<boolean> {
    const now = this.clock.now();
    const { ownerInstance, ownerBoot, leaseUntil } = this.owner(now);
    const inserted = await claimKey(this.db).execute({ userId, key, scope, hash, now, ownerInstance, ownerBoot, leaseUntil });
    if (inserted.length) return true;
    // A claim left by a request that died: take it over, once (the update is the race's referee). Dead is: made
    // by this instance's previous process (this one holds the instance's address: ADR 061), or not renewed within
    // its lease (a process that died, on any instance), or older than staleMs from before claims had owners.
    const staleBefore = new Date(now.getTime() - (this.opts.staleMs ?? STALE_MS));
    const dead = or(
      and(eq(idempotencyKeys.ownerInstance, this.identity.instanceId), sql`${idempotencyKeys.ownerBoot} <> ${this.identity.bootId}`),
      lt(idempotencyKeys.leaseUntil, now),
      and(isNull(idempotencyKeys.leaseUntil), lt(idempotencyKeys.createdAt, staleBefore)),
    );
    const taken = await this.db
      .update(idempotencyKeys)
      .set({ createdAt: now, ...this.owner(now) })
      .where(
        and(
          eq(idempotencyKeys.userId, userId),
          eq(idempotencyKeys.key, key),
          eq(idempotencyKeys.scope, scope),
          eq(idempotencyKeys.requestHash, hash),
          isNull(idempotencyKeys.response),
          dead,
        ),
      )
      .returning({ key: idempotencyKeys.key });
    return taken.length > 0;
  }

  private async stored<T>(userId: string, key: string, scope: string, hash: string): Promise<IdempotentAnswer<T>> {
    const deadline = Date.now() + (this.opts.waitMs ?? WAIT_MS);
    for (;;) {
      const [row] = await this.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      // Forgotten meanwhile (the first failed unexpectedly): this one is told to try again.
      if (!row) throw new HttpError(409, IDEMPOTENCY_MESSAGES.inFlight);
      if (row.scope !== scope || row.requestHash !== hash) throw new HttpError(409, IDEMPOTENCY_MESSAGES.reused);
      if (row.response !== null && row.statusCode !== null) {
        return { status: row.statusCode, body: row.response as T, replayed: true };
      }
      if (Date.now() >= deadline) throw new HttpError(409, IDEMPOTENCY_MESSAGES.inFlight);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async store(userId: string, key: string, status: number, response: unknown): Promise<void> {
    await storeAnswer(this.db).execute({ status, response: JSON.stringify(response), userId, key, ownerBoot: this.identity.bootId });
  }
}

// Every paying request's claim and answer, built once (server/db/prepared.ts).
const p = sql.placeholder;
const claimKey = statement((db) =>
  db
    .insert(idempotencyKeys)
    .values({
      userId: p('userId'),
      key: p('key'),
      scope: p('scope'),
      requestHash: p('hash'),
      createdAt: p('now'),
      ownerInstance: p('ownerInstance'),
      ownerBoot: p('ownerBoot'),
      leaseUntil: p('leaseUntil'),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
    .prepare('idempotency_claim'),
);
/** As `mine()`: this process's claim, unanswered. */
const storeAnswer = statement((db) =>
  db
    .update(idempotencyKeys)
    .set({ statusCode: sql`${p('status')}::int`, response: sql`${p('response')}::jsonb`, leaseUntil: null })
    .where(
      and(
        eq(idempotencyKeys.userId, p('userId')),
        eq(idempotencyKeys.key, p('key')),
        eq(idempotencyKeys.ownerBoot, p('ownerBoot')),
        isNull(idempotencyKeys.response),
      ),
    )
    .prepare('idempotency_answer'),
);
