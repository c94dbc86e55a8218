import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { createUser } from '../db/factories.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, outbox } from './schema.ts';
import { manualClock, type Clock } from './clock.ts';
import { DISPATCHER_DEFAULTS, JobDeferred } from './dispatcher.ts';
import { createPlatform } from './platform.ts';
import { systemActor } from './actor.ts';
import { ProcessIdentity } from './instance.ts';
import { IDEMPOTENCY_MESSAGES, Idempotency } from './idempotency.ts';
import { HttpError } from '../lib/http.ts';

// Leases of a process that died (ADR 061): a restarted instance takes back at once what its previous process held,
// and never what a live process holds.

const silent = pino({ level: 'silent' });
const actor = systemActor('test');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(outbox);
});

/** A process of an instance: its identity established, as startServer does once it listens. */
function processOf(instanceId: string): ProcessIdentity {
  const identity = new ProcessIdentity();
  identity.establish(instanceId);
  return identity;
}

const platformOn = (db: Db, clock: Clock, identity: ProcessIdentity) =>
  createPlatform({ db, log: silent, clock, identity, dispatcher: { pollMs: 3_600_000, leaseMs: 120_000 } });

const never = new Promise<never>(() => {});

describe('outbox leases', () => {
  it("a restarted instance runs its previous process's claimed rows at once; another instance's stay leased", async () => {
    const clock = manualClock();
    const old = platformOn(database.db, clock, processOf('host/0.0.0.0:3000'));
    const other = platformOn(database.db, clock, processOf('host/0.0.0.0:3001'));
    const entered: string[] = [];
    // Both claim a row and hang in its handler: then the first one's process is killed.
    for (const [name, p] of [['old', old], ['other', other]] as const) {
      p.dispatcher.handle<{ n: number }>('work', ({ n }) => {
        entered.push(`${name}:${n}`);
        return never;
      });
    }
    await old.withTx(actor, async ({ outbox: out }) => out.job('work', { n: 1 }));
    void old.dispatcher.runDue();
    await expect.poll(() => entered).toEqual(['old:1']);
    await other.withTx(actor, async ({ outbox: out }) => out.job('work', { n: 2 }));
    void other.dispatcher.runDue();
    await expect.poll(() => entered).toEqual(['old:1', 'other:2']);

    // The instance starts again (a new process, the same address): its old row runs now, not in two minutes.
    const restarted = platformOn(database.db, clock, processOf('host/0.0.0.0:3000'));
    const ran: number[] = [];
    restarted.dispatcher.handle<{ n: number }>('work', ({ n }) => void ran.push(n));
    expect(await restarted.dispatcher.reclaimOwn()).toBe(1);
    expect(await restarted.dispatcher.runDue()).toBe(1);
    expect(ran).toEqual([1]);
    // The other instance's row is its own still: neither released nor run.
    const left = await database.db.select().from(outbox);
    expect(left.map((r) => [r.payload, r.leasedBy, r.lockedUntil !== null])).toEqual([[{ n: 2 }, 'host/0.0.0.0:3001', true]]);
    // Nor does a second call, or a process that is no established instance, release a live lease.
    expect(await restarted.dispatcher.reclaimOwn()).toBe(0);
    expect(await platformOn(database.db, clock, new ProcessIdentity()).dispatcher.reclaimOwn()).toBe(0);
  });

  it('hands a deferred row back without counting the attempt, due after the first backoff', async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock, new ProcessIdentity());
    let calls = 0;
    p.dispatcher.handle('loopback', () => {
      calls++;
      if (calls === 1) throw new JobDeferred('not listening');
    });
    await p.withTx(actor, async ({ outbox: out }) => out.job('loopback'));
    expect(await p.dispatcher.runDue()).toBe(1);
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ state: 'pending', attempts: 0, lockedUntil: null, lastError: null });
    expect(row!.dueAt.getTime()).toBe(clock.now().getTime() + DISPATCHER_DEFAULTS.backoffMs);
    expect(await p.dispatcher.runDue()).toBe(0);
    clock.advance(DISPATCHER_DEFAULTS.backoffMs);
    expect(await p.dispatcher.runDue()).toBe(1);
    expect(calls).toBe(2);
    expect(await database.db.select().from(outbox)).toEqual([]);
  });
});

describe('idempotency claims', () => {
  const body = { order_id: 'o1', method: 'balance' };
  const options = (identity: ProcessIdentity) => ({ identity, waitMs: 200, leaseMs: 15_000 });

  async function refusal(p: Promise<unknown>): Promise<string> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    return (err as HttpError).message;
  }

  it("a retry after a crash runs at once on the restarted instance; a live process's claim is never taken", async () => {
    const user = await createUser(database.db);
    const clock = manualClock();
    const crashed = new Idempotency(database.db, clock, options(processOf('host/0.0.0.0:3000')));
    // The first request's process dies while working: its claim stays without an answer (and its lease live).
    void crashed.run(user.id, 'k1', 'payments.pay', body, () => never);
    await expect.poll(async () => (await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'k1'))).length).toBe(1);

    // Another live instance must not take it: its process may be alive (a concurrent duplicate).
    const elsewhere = new Idempotency(database.db, clock, options(processOf('host/0.0.0.0:3001')));
    let ranElsewhere = false;
    expect(await refusal(elsewhere.run(user.id, 'k1', 'payments.pay', body, async () => (ranElsewhere = true)))).toBe(IDEMPOTENCY_MESSAGES.inFlight);
    expect(ranElsewhere).toBe(false);

    // The same instance restarted (another process on its address) knows that process is gone: the retry runs now.
    const restarted = new Idempotency(database.db, clock, options(processOf('host/0.0.0.0:3000')));
    const answer = await restarted.run(user.id, 'k1', 'payments.pay', body, async () => ({ paid: 1 }));
    expect(answer).toEqual({ status: 200, body: { paid: 1 }, replayed: false });
    // And its answer is the key's from now on, on any instance.
    expect(await elsewhere.run(user.id, 'k1', 'payments.pay', body, async () => ({ paid: 2 }))).toEqual({ status: 200, body: { paid: 1 }, replayed: true });
  });

  it('a concurrent duplicate on the same live process is told the request is being processed', async () => {
    const user = await createUser(database.db);
    const idempotency = new Idempotency(database.db, manualClock(), options(processOf('host/0.0.0.0:3000')));
    let finish!: (v: { paid: number }) => void;
    const first = idempotency.run(user.id, 'k2', 'payments.pay', body, () => new Promise<{ paid: number }>((r) => (finish = r)));
    await expect.poll(() => finish).toBeDefined();
    let ranTwice = false;
    expect(await refusal(idempotency.run(user.id, 'k2', 'payments.pay', body, async () => ((ranTwice = true), { paid: 2 })))).toBe(IDEMPOTENCY_MESSAGES.inFlight);
    finish({ paid: 1 });
    expect((await first).body).toEqual({ paid: 1 });
    expect(ranTwice).toBe(false);
  });

  it("another instance takes over a claim once its lease ran out unrenewed (its process died); a renewed one holds", async () => {
    const user = await createUser(database.db);
    const deadClock = manualClock();
    const liveClock = manualClock();
    const dead = new Idempotency(database.db, deadClock, { identity: processOf('host/0.0.0.0:3000'), leaseMs: 60_000 });
    void dead.run(user.id, 'k3', 'payments.pay', body, () => never);
    // A live one's claim, renewed every third of its lease while its work runs.
    const live = new Idempotency(database.db, liveClock, { identity: processOf('host/0.0.0.0:3002'), leaseMs: 60 });
    let finish!: () => void;
    const working = live.run(user.id, 'k4', 'payments.pay', body, () => new Promise<{ paid: number }>((r) => (finish = () => r({ paid: 4 }))));
    await expect.poll(() => finish).toBeDefined();

    const clock = manualClock(new Date(deadClock.now().getTime() + 60_001));
    const other = new Idempotency(database.db, clock, options(processOf('host/0.0.0.0:3001')));
    expect((await other.run(user.id, 'k3', 'payments.pay', body, async () => ({ paid: 3 }))).body).toEqual({ paid: 3 });

    // The live claim's lease is short but renewed: past its first term, it still holds.
    liveClock.advance(1_000);
    const lease = async () => (await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'k4')))[0]!.leaseUntil!.getTime();
    await expect.poll(lease).toBeGreaterThan(liveClock.now().getTime() - 1);
    const probe = new Idempotency(database.db, { now: () => new Date(liveClock.now().getTime() - 1) }, options(processOf('host/0.0.0.0:3001')));
    expect(await refusal(probe.run(user.id, 'k4', 'payments.pay', body, async () => ({ paid: 5 })))).toBe(IDEMPOTENCY_MESSAGES.inFlight);
    finish();
    expect((await working).body).toEqual({ paid: 4 });
  });
});
