import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { settings } from '../platform/schema.ts';
import { WaitsForItsOwnTransaction } from './own-transaction.ts';

// A query through the pool from inside a transaction's work hangs PGlite for good (ADR 069); the tests' PostgreSQL
// refuses it as PGlite does, so that the files run on PostgreSQL alone find it (ADR 094). Runs on both databases.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(async () => {
  await database.drop();
});

describe(`a query through the pool inside a transaction's work (${process.env.TEST_DB ?? 'pglite'})`, () => {
  it('is refused, and so is a transaction; the work goes on through its tx and commits', async () => {
    const { db } = database;
    await db.transaction(async (tx) => {
      await tx.insert(settings).values({ key: 'own-tx.a', value: 1 });
      await expect(db.select().from(settings)).rejects.toSatisfy((err) => causes(err, WaitsForItsOwnTransaction));
      await expect(db.execute(sql`select 1`)).rejects.toSatisfy((err) => causes(err, WaitsForItsOwnTransaction));
      await expect(db.transaction(async () => {})).rejects.toBeInstanceOf(WaitsForItsOwnTransaction);
      await tx.insert(settings).values({ key: 'own-tx.b', value: 2 });
    });
    const keys = (await db.select({ key: settings.key }).from(settings)).map((row) => row.key).sort();
    expect(keys).toEqual(['own-tx.a', 'own-tx.b']);
  });

  it('is not refused outside the work: before, after, and beside it in another async context', async () => {
    const { db } = database;
    let started: Promise<unknown> = Promise.resolve();
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // Started by the work, not waited for: it runs once the work has returned (PGlite: after the commit).
      started = new Promise((resolve) => setTimeout(resolve, 10)).then(() => db.execute(sql`select 2 as two`));
    });
    await expect(started).resolves.toBeTruthy();
    await expect(db.execute(sql`select 3`)).resolves.toBeTruthy();
  });
});

/** Whether `err` or one of its causes (drizzle wraps a driver's error) is an instance of `kind`. */
function causes(err: unknown, kind: new (...args: never[]) => Error): boolean {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof kind) return true;
  return false;
}
