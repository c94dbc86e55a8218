import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { openPglite, openPostgres, type Database, type Db } from '../db/client.ts';
import { outbox } from './schema.ts';
import { settings } from './schema.ts';
import { manualClock, type ManualClock } from './clock.ts';
import { backoffMs, DISPATCHER_DEFAULTS } from './dispatcher.ts';
import { createPlatform, type Platform } from './platform.ts';
import { systemActor } from './actor.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const silent = pino({ level: 'silent' });
const actor = systemActor('test');
const DAY = 24 * 60 * 60_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.delete(outbox);
  await database.db.delete(settings);
});

/** A dispatcher that never polls on its own: the tests run it with runDue(). */
function platformOn(db: Db, clock: ManualClock, opts: Parameters<typeof createPlatform>[0]['dispatcher'] = {}, log = silent): Platform {
  return createPlatform({ db, log, clock, dispatcher: { pollMs: 3_600_000, ...opts } });
}

const rows = (db: Db = database.db) => db.select().from(outbox).orderBy(outbox.id);
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
};

describe('dispatcher', () => {
  it('runs each due job once when two instances (two pools on PostgreSQL) claim together', async () => {
    const clock = manualClock();
    // A second instance: its own pool on PostgreSQL; on PGlite (one connection per process) the same database.
    const second: Database | null = onPostgres ? openPostgres(database.url!, 5) : null;
    const a = platformOn(database.db, clock, { batchSize: 7 });
    const b = platformOn(second?.db ?? database.db, clock, { batchSize: 7 });
    const runs = new Map<number, number>();
    const byInstance = { a: 0, b: 0 };
    for (const [name, p] of [['a', a], ['b', b]] as const) {
      p.dispatcher.handle<{ n: number }>('count', async ({ n }) => {
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        runs.set(n, (runs.get(n) ?? 0) + 1);
        byInstance[name]++;
      });
    }
    const N = 300;
    await a.withTx(actor, async ({ outbox: out }) => {
      for (let n = 0; n < N; n++) out.job('count', { n });
    });
    // Both poll at once, several times over, as instances do.
    await Promise.all([a.dispatcher.runDue(), b.dispatcher.runDue(), a.dispatcher.runDue(), b.dispatcher.runDue()]);
    await Promise.all([a.dispatcher.runDue(), b.dispatcher.runDue()]);
    await second?.close();

    expect(runs.size).toBe(N);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(byInstance.a + byInstance.b).toBe(N);
    // Both took part: the claims really raced.
    expect(byInstance.a).toBeGreaterThan(0);
    expect(byInstance.b).toBeGreaterThan(0);
    expect(await rows()).toEqual([]);
  });

  it('keeps a delayed job across a restart and runs it at its due time, once', async () => {
    // A database that outlives its process: a PGlite directory, or a second pool on the same PostgreSQL database.
    const dir = onPostgres ? null : mkdtempSync(path.join(tmpdir(), 'podryad-outbox-'));
    const open = async () => {
      const db = dir ? await openPglite(dir) : openPostgres(database.url!, 2);
      await db.migrate();
      return db;
    };
    const start = Date.parse('2026-03-01T12:00:00Z');
    const clock = manualClock(start);

    let first = await open();
    const before = platformOn(first.db, clock);
    await before.dispatcher.start();
    await before.withTx(actor, async ({ outbox: out }) => {
      out.job('order.autoAccept', { orderId: 'o1' }, { delayMs: 3 * DAY, dedupeKey: 'order.autoAccept:o1' });
    });
    await before.dispatcher.stop();
    await first.close();

    // The restarted instance.
    first = await open();
    const after = platformOn(first.db, clock);
    const accepted: unknown[] = [];
    after.dispatcher.handle('order.autoAccept', (payload) => void accepted.push(payload));
    await after.dispatcher.start();
    expect(await after.dispatcher.runDue()).toBe(0);
    clock.advance(3 * DAY - 1000);
    expect(await after.dispatcher.runDue()).toBe(0);
    expect(accepted).toEqual([]);
    clock.advance(1000);
    expect(await after.dispatcher.runDue()).toBe(1);
    expect(accepted).toEqual([{ orderId: 'o1' }]);
    expect(await after.dispatcher.runDue()).toBe(0);
    expect(await rows(first.db)).toEqual([]);
    await after.dispatcher.stop();
    await first.close();
    // Two PGlite instances opened from a directory and migrated: well over the default 30 s on a loaded 2-core machine.
  }, 120_000);

  it('retries with exponential backoff and keeps a row that failed every attempt, with its error', async () => {
    const clock = manualClock(Date.parse('2026-03-01T12:00:00Z'));
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const maxAttempts = 4;
    const p = createPlatform({ db: database.db, log: log as never, clock, dispatcher: { pollMs: 3_600_000, maxAttempts, backoffMs: 1000 } });
    let calls = 0;
    p.dispatcher.deliverLetters(async () => {
      calls++;
      throw new Error('SMTP 451: try again later');
    });
    await p.withTx(actor, async ({ outbox: out }) => out.mail('a@example.org', { subject: 's', text: 't', html: 'h' }));

    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      expect(await p.dispatcher.runDue()).toBe(1);
      expect(calls).toBe(attempt);
      const [row] = await rows();
      expect(row).toMatchObject({ attempts: attempt, lastError: 'SMTP 451: try again later', lockedUntil: null });
      if (attempt < maxAttempts) {
        const wait = backoffMs(attempt, { backoffMs: 1000, maxBackoffMs: DISPATCHER_DEFAULTS.maxBackoffMs });
        expect(wait).toBe(1000 * 2 ** (attempt - 1));
        expect(row!.state).toBe('pending');
        expect(row!.dueAt.getTime()).toBe(clock.now().getTime() + wait);
        // Not before its time.
        clock.advance(wait - 1);
        expect(await p.dispatcher.runDue()).toBe(0);
        clock.advance(1);
      } else {
        expect(row!.state).toBe('failed');
      }
    }
    // Given up: it stays, visible, and is not run again.
    clock.advance(DAY);
    expect(await p.dispatcher.runDue()).toBe(0);
    expect(calls).toBe(maxAttempts);
    expect(await rows()).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledTimes(maxAttempts - 1);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ kind: 'letter', attempts: maxAttempts }), expect.stringContaining('kept as failed'));
  });

  it("picks up a crashed instance's claimed rows once their lease has run out", async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock, { leaseMs: 60_000 });
    let runs = 0;
    p.dispatcher.handle('work', () => void runs++);
    await p.withTx(actor, async ({ outbox: out }) => out.job('work'));
    // An instance claimed the row, then died: the lease stands and nobody completes the row.
    await database.db
      .update(outbox)
      .set({ lockedUntil: new Date(clock.now().getTime() + 60_000), attempts: sql`${outbox.attempts} + 1` });
    expect(await p.dispatcher.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await p.dispatcher.runDue()).toBe(0);
    clock.advance(1);
    expect(await p.dispatcher.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it("commits a job's writes with its completion: a run whose lease was taken over writes nothing", async () => {
    const clock = manualClock();
    const a = platformOn(database.db, clock, { leaseMs: 60_000 });
    const b = platformOn(database.db, clock, { leaseMs: 60_000 });
    const hold = { a: gate(), b: gate() };
    const started = { a: gate(), b: gate() };
    for (const [name, p] of [['a', a], ['b', b]] as const) {
      p.dispatcher.handle<{ id: string }>('accept', async ({ id }, job) => {
        started[name].open();
        await hold[name].opened;
        await job.withTx(async ({ tx }) => void (await tx.insert(settings).values({ key: `accepted:${id}:${name}`, value: true })));
      });
    }
    await a.withTx(actor, async ({ outbox: out }) => out.job('accept', { id: 'o1' }));
    const runA = a.dispatcher.runDue();
    await started.a.opened;
    // A's handler outlives its lease; B claims the row again.
    clock.advance(60_000);
    const runB = b.dispatcher.runDue();
    await started.b.opened;
    // A finishes first, but the row is B's now: A's transaction rolls back.
    hold.a.open();
    await runA;
    expect(await database.db.select().from(settings)).toEqual([]);
    expect(await rows()).toHaveLength(1);
    hold.b.open();
    expect(await runB).toBe(1);
    expect((await database.db.select().from(settings)).map((s) => s.key)).toEqual(['accepted:o1:b']);
    expect(await rows()).toEqual([]);
  });

  it('runs a recurring job on one pending row, reschedules it after each run, and runs it at once when triggered', async () => {
    const clock = manualClock(Date.parse('2026-03-01T12:00:00Z'));
    const HOUR = 60 * 60_000;
    let runs = 0;
    let fail = false;
    const make = () => {
      const p = platformOn(database.db, clock, { maxAttempts: 2 });
      p.dispatcher.every('rates-refresh', HOUR, async () => {
        runs++;
        if (fail) throw new Error('rates service down');
      });
      return p;
    };
    const a = make();
    const b = make();
    await Promise.all([a.dispatcher.start(), b.dispatcher.start()]);
    await Promise.all([a.dispatcher.runDue(), b.dispatcher.runDue()]);
    // Started on two instances: one row, one run, the next an hour on.
    expect(runs).toBe(1);
    let [row] = await rows();
    expect(await rows()).toHaveLength(1);
    expect(row).toMatchObject({ name: 'rates-refresh', dedupeKey: 'rates-refresh', state: 'pending', attempts: 0, lastError: null });
    expect(row!.dueAt.getTime()).toBe(clock.now().getTime() + HOUR);
    // A restart does not add a row or run it early. Stopped after: its start's pass, late on a loaded machine, could
    // otherwise claim the row triggered below before `a` does (a CI run, session 72).
    const restarted = make();
    await restarted.dispatcher.start();
    expect(await rows()).toHaveLength(1);
    expect(await restarted.dispatcher.runDue()).toBe(0);
    expect(await a.dispatcher.runDue()).toBe(0);
    await restarted.dispatcher.stop();

    // Triggered (no rates held at boot): due at once.
    expect(await a.dispatcher.trigger('rates-refresh')).toBe(true);
    await a.dispatcher.runDue();
    expect(runs).toBe(2);

    // Failing on every attempt: the error stays on the row and the job keeps its hourly schedule.
    fail = true;
    clock.advance(HOUR);
    await a.dispatcher.runDue();
    clock.advance(backoffMs(1));
    await a.dispatcher.runDue();
    expect(runs).toBe(4);
    [row] = await rows();
    expect(row).toMatchObject({ state: 'pending', attempts: 0, lastError: 'rates service down' });
    expect(row!.dueAt.getTime()).toBe(clock.now().getTime() + HOUR);
    fail = false;
    clock.advance(HOUR);
    await b.dispatcher.runDue();
    expect(runs).toBe(5);
    expect((await rows())[0]).toMatchObject({ lastError: null });
    await Promise.all([a.dispatcher.stop(), b.dispatcher.stop()]);
  });

  it('keeps a job written under the key of one being run, whose handler may have looked already, and runs it next', async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock);
    const HOUR = 60 * 60_000;
    const inHandler = gate();
    const release = gate();
    const seen: number[] = [];
    p.dispatcher.handle<{ n: number }>('pages-changed', async ({ n }) => {
      seen.push(n);
      if (n === 1) {
        inHandler.open();
        await release.opened;
      }
    });
    const ticking = gate();
    const tickRelease = gate();
    p.dispatcher.every('tick', HOUR, async () => {
      ticking.open();
      await tickRelease.opened;
    });
    const signal = (n: number) => p.withTx(actor, async ({ outbox: out }) => out.job('pages-changed', { n }, { dedupeKey: 'pages-changed' }));
    // Written before the dispatcher starts, which would otherwise claim the first at its commit.
    await signal(1);
    await signal(2); // waiting behind the first, which has not run: one change, one job
    await p.dispatcher.start();
    const running = p.dispatcher.runDue();
    await Promise.all([inHandler.opened, ticking.opened]);
    // Under way: the job's row no longer holds its key; the recurring job's row keeps its own.
    expect((await rows()).map((r) => [r.name, r.dedupeKey]).sort()).toEqual([
      ['pages-changed', null],
      ['tick', 'tick'],
    ]);
    await signal(3);
    // A restart meanwhile adds no second row for the recurring job.
    await platformOn(database.db, clock).dispatcher.every('tick', HOUR, async () => {}).start();
    expect((await rows()).filter((r) => r.name === 'tick')).toHaveLength(1);
    release.open();
    tickRelease.open();
    await running;
    await p.dispatcher.runDue();
    expect(seen).toEqual([1, 3]);
    expect((await rows()).map((r) => [r.name, r.dedupeKey])).toEqual([['tick', 'tick']]);
    await p.dispatcher.stop();
  });

  it('stops gracefully: the handler in flight finishes and its row is completed, nothing new is claimed', async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock, { batchSize: 1 });
    const slow = gate();
    const started = gate();
    const done: number[] = [];
    p.dispatcher.handle<{ n: number }>('slow', async ({ n }) => {
      started.open();
      await slow.opened;
      done.push(n);
    });
    await p.withTx(actor, async ({ outbox: out }) => {
      out.job('slow', { n: 1 });
      out.job('slow', { n: 2 });
    });
    void p.dispatcher.runDue();
    await started.opened;
    let stopped = false;
    const stopping = p.dispatcher.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    expect(done).toEqual([1]);
    expect((await rows()).map((r) => r.payload)).toEqual([{ n: 2 }]);
    expect(await p.dispatcher.runDue()).toBe(0);
  });

  it('does not hold back socket events behind a slow letter', async () => {
    const p = platformOn(database.db, manualClock());
    const smtp = gate();
    const events: string[] = [];
    let sent = 0;
    p.dispatcher
      .deliverLetters(async () => {
        await smtp.opened;
        sent++;
      })
      .deliverSockets((_users, event, ..._args) => void events.push(event));
    await p.dispatcher.start();
    await p.withTx(actor, async ({ outbox: out }) => out.mail('a@example.org', { subject: 's', text: 't', html: 'h' }));
    await new Promise((r) => setTimeout(r, 50));
    await p.withTx(actor, async ({ outbox: out }) => out.emit(['u1'], 'delete_chat', { id: 'c1' }));
    const deadline = Date.now() + 5000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(['delete_chat']);
    expect(sent).toBe(0);
    smtp.open();
    await p.dispatcher.stop();
    expect(sent).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('delivers socket events of one transaction in the order they were written', async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock);
    const seen: unknown[] = [];
    p.dispatcher.deliverSockets((_users, event, ...args) => void seen.push([event, ...args]));
    await p.withTx(actor, async ({ outbox: out }) => {
      for (let i = 0; i < 30; i++) out.emit(['u1'], i % 2 ? 'update_message' : 'delete_chat', { id: `m${i}` });
    });
    await p.dispatcher.runDue();
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => [i % 2 ? 'update_message' : 'delete_chat', { id: `m${i}` }]));
    expect(await database.db.select().from(outbox).where(eq(outbox.state, 'pending'))).toEqual([]);
  });

  it('sends no socket row whose event is unknown or whose payload does not fit its event, and keeps it as failed', async () => {
    const clock = manualClock();
    const p = platformOn(database.db, clock, { maxAttempts: 1 });
    const seen: unknown[] = [];
    p.dispatcher.deliverSockets((userIds, event, ...args) => void seen.push([userIds, event, ...args]));
    // Rows as an older (or newer) server might have written them.
    await database.db.insert(outbox).values([
      { kind: 'socket', name: 'no_such_event', payload: { userIds: ['u1'], payload: { id: 'o1' } }, dueAt: clock.now() },
      { kind: 'socket', name: 'update_message', payload: { userIds: ['u1'], payload: { message_id: 'm1' } }, dueAt: clock.now() },
      { kind: 'socket', name: 'update_message', payload: { users: ['u1'], payload: { id: 'm1' } }, dueAt: clock.now() },
      { kind: 'socket', name: 'update_message', payload: { userIds: ['u1'], payload: { id: 'm2', extra: 1 } }, dueAt: clock.now() },
    ]);
    await p.dispatcher.runDue();
    // Keys the event does not have are dropped; a missing one fails the row.
    expect(seen).toEqual([[['u1'], 'update_message', { id: 'm2' }]]);
    const failed = await rows();
    expect(failed.map((r) => r.state)).toEqual(['failed', 'failed', 'failed']);
    expect(failed[0]?.lastError).toBe('unknown socket event "no_such_event"');
  });
});
