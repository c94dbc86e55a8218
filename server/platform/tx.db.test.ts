import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { outbox } from './schema.ts';
import { settings } from './schema.ts';
import type { Db } from '../db/client.ts';
import type { Letter } from '../lib/mail.ts';
import { createPlatform, type Platform } from './platform.ts';
import { systemActor } from './actor.ts';
import type { Tx } from './tx.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let platform: Platform;
const letters: { to: string; letter: Letter }[] = [];
const events: { userIds: string[]; event: string; payload: unknown }[] = [];
const actor = systemActor('test');
const letter: Letter = { subject: 'Проверка', text: 'Текст', html: '<p>Текст</p>' };

beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
  // Polling every hour: only the nudge after a commit can deliver within the test.
  platform = createPlatform({ db: database.db, log: pino({ level: 'silent' }), dispatcher: { pollMs: 3_600_000 } });
  platform.dispatcher
    .deliverSockets((userIds, event, payload) => void events.push({ userIds, event, payload }))
    .deliverLetters(async (to, l) => void letters.push({ to, letter: l }));
  await platform.dispatcher.start();
});
afterAll(async () => {
  await platform.dispatcher.stop();
  await database.drop();
});
beforeEach(async () => {
  letters.length = 0;
  events.length = 0;
  await database.db.delete(outbox);
  await database.db.delete(settings);
});

const pendingRows = () => database.db.select().from(outbox);
const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('withTx and the outbox', () => {
  it('delivers a letter and a socket event queued in a committed transaction, right after the commit', async () => {
    await platform.withTx(actor, async ({ tx, outbox: out }) => {
      await tx.insert(settings).values({ key: 'k', value: 1 });
      out.mail('a@example.org', letter);
      out.emit(['u1', 'u2', 'u1'], 'update_message', { id: 'k' });
    });
    await until(() => letters.length === 1 && events.length === 1);
    expect(letters).toEqual([{ to: 'a@example.org', letter }]);
    expect(events).toEqual([{ userIds: ['u1', 'u2'], event: 'update_message', payload: { id: 'k' } }]);
    // Delivered rows are deleted.
    await until(async () => (await pendingRows()).length === 0);
  });

  it('never sends a letter or a socket event queued in a transaction that rolls back', async () => {
    await expect(
      platform.withTx(actor, async ({ tx, outbox: out }) => {
        await tx.insert(settings).values({ key: 'k', value: 1 });
        out.mail('a@example.org', letter);
        out.emit(['u1'], 'update_message', { id: 'k' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A statement that fails after the writes rolls them back too.
    await expect(
      platform.withTx(actor, async ({ tx, outbox: out }) => {
        out.mail('b@example.org', letter);
        out.emit(['u2'], 'delete_chat', { id: 'c' });
        await tx.execute(sql`select 1/0`);
      }),
    ).rejects.toThrow();
    expect(await pendingRows()).toEqual([]);
    expect(await platform.dispatcher.runDue()).toBe(0);
    expect(letters).toEqual([]);
    expect(events).toEqual([]);
    expect(await database.db.select().from(settings)).toEqual([]);
  });

  it('joins an outer transaction: one commit for both, and a rollback of the outer undoes the inner', async () => {
    const inner = (key: string) =>
      platform.withTx(systemActor('inner'), async ({ tx, outbox: out, actor: a }) => {
        expect(a).toEqual(systemActor('inner'));
        // The outer transaction's uncommitted row is visible: it is the same transaction.
        expect(await tx.select().from(settings).where(eq(settings.key, 'outer'))).toHaveLength(1);
        await tx.insert(settings).values({ key, value: 1 });
        out.mail(`${key}@example.org`, letter);
      });

    await expect(
      platform.withTx(actor, async ({ tx }) => {
        await tx.insert(settings).values({ key: 'outer', value: 1 });
        await inner('inner-1');
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await database.db.select().from(settings)).toEqual([]);
    expect(await pendingRows()).toEqual([]);

    await platform.withTx(actor, async ({ tx, outbox: out }) => {
      await tx.insert(settings).values({ key: 'outer', value: 1 });
      out.mail('outer@example.org', letter);
      await inner('inner-2');
    });
    await until(() => letters.length === 2);
    expect(letters.map((l) => l.to)).toEqual(['outer@example.org', 'inner-2@example.org']);
    expect((await database.db.select().from(settings)).map((s) => s.key).sort()).toEqual(['inner-2', 'outer']);
  });

  it('refuses a write that outlives its transaction instead of losing it silently', async () => {
    let late: (() => void) | undefined;
    await platform.withTx(actor, async ({ outbox: out }) => {
      late = () => out.mail('late@example.org', letter);
    });
    expect(late).toThrow(/after its transaction ended/);
    // Work started inside a finished transaction opens a transaction of its own rather than joining the old one.
    let followUp: Promise<void> | undefined;
    await platform.withTx(actor, async () => {
      followUp = new Promise<void>((r) => setTimeout(r, 20)).then(() =>
        platform.withTx(actor, async ({ tx }) => void (await tx.insert(settings).values({ key: 'later', value: 1 }))),
      );
    });
    await followUp;
    expect(await database.db.select().from(settings)).toHaveLength(1);
  });

  it('keeps one pending job per dedupe key', async () => {
    for (let i = 0; i < 3; i++) {
      await platform.withTx(actor, async ({ outbox: out }) => {
        out.job('order.autoAccept', { orderId: 'o1', i }, { delayMs: 60_000, dedupeKey: 'order.autoAccept:o1' });
        out.job('order.autoAccept', { orderId: 'o1', i }, { delayMs: 60_000, dedupeKey: 'order.autoAccept:o1' });
      });
    }
    const rows = await pendingRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'job', name: 'order.autoAccept', payload: { orderId: 'o1', i: 0 }, state: 'pending', attempts: 0 });
  });

  it('writes what is queued so far when asked (before a lock held to the commit), the rest at the commit', async () => {
    const written = (tx: Tx) => tx.select({ name: outbox.name, payload: outbox.payload }).from(outbox);
    const job = (i: number) => ['order.autoAccept', { i }, { delayMs: 60_000, dedupeKey: 'order.autoAccept:o1' }] as const;
    await platform.withTx(actor, async ({ tx, outbox: out, writeQueued }) => {
      out.mail('first@example.org', letter);
      out.job(...job(1));
      await writeQueued();
      expect(await written(tx)).toHaveLength(2);
      // Nothing is written twice; a later job with the same dedupe key is dropped, as within one write.
      await writeQueued();
      expect(await written(tx)).toHaveLength(2);
      out.mail('second@example.org', letter);
      out.job(...job(2));
      // A joined transaction writes the outer one's queue.
      await platform.withTx(systemActor('inner'), async ({ outbox: inner, writeQueued: innerWrite }) => {
        inner.mail('inner@example.org', letter);
        await innerWrite();
      });
      expect(await written(tx)).toHaveLength(4);
    });
    await until(() => letters.length === 3);
    expect(letters.map((l) => l.to).sort()).toEqual(['first@example.org', 'inner@example.org', 'second@example.org']);
    // The letters' rows go once delivered; the job stays, the first of its dedupe key.
    await until(async () => (await pendingRows()).length === 1);
    expect((await pendingRows()).map((r) => r.payload)).toEqual([{ i: 1 }]);

    // Written early, still undone by a rollback.
    await database.db.delete(outbox);
    letters.length = 0;
    await expect(
      platform.withTx(actor, async ({ outbox: out, writeQueued }) => {
        out.mail('never@example.org', letter);
        await writeQueued();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await pendingRows()).toEqual([]);
    expect(await platform.dispatcher.runDue()).toBe(0);
    expect(letters).toEqual([]);
  });

  it('hands the command a transaction that is a Db, without a cast', async () => {
    const countSettings = async (db: Db) => (await db.select().from(settings)).length;
    const n = await platform.withTx(actor, async ({ tx }: { tx: Tx }) => {
      await tx.insert(settings).values({ key: 'x', value: 1 });
      return countSettings(tx);
    });
    expect(n).toBe(1);
  });
});
