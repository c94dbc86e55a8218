import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { settings } from '../platform/schema.ts';
import { statement } from './prepared.ts';
import { WaitsForItsOwnTransaction } from './own-transaction.ts';

// A statement built once runs on the connection of the handle it is given: inside a transaction it is that
// transaction's statement (it sees and undoes with it), on the database it is the database's.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(() => database?.drop());

const build = vi.fn((db: Parameters<Parameters<typeof statement>[0]>[0]) =>
  db.select({ value: settings.value }).from(settings).where(eq(settings.key, sql.placeholder('key'))).prepare('test_setting_by_key'),
);
const settingByKey = statement(build);
const upsert = statement((db) =>
  db
    .insert(settings)
    .values({ key: sql.placeholder('key'), value: sql.placeholder('value') })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } })
    .returning({ key: settings.key, value: settings.value })
    .prepare('test_setting_upsert'),
);

// A self-join whose other side may be missing: drizzle nulls that side's object.
const child = alias(settings, 'child');
const withChild = (db: Parameters<Parameters<typeof statement>[0]>[0]) =>
  db
    .select({ key: settings.key, value: settings.value, child: { key: child.key, value: child.value }, n: sql<number>`length(${settings.key})`.mapWith(Number) })
    .from(settings)
    .leftJoin(child, eq(child.key, sql`${settings.key} || '.child'`))
    .where(sql`${settings.key} like 'prepared.m%'`)
    .orderBy(settings.key);
const settingsWithChild = statement((db) => withChild(db).prepare('test_settings_with_child'));

describe('statement', () => {
  it("runs in the transaction it is handed: it sees the transaction's rows, and its writes go with its rollback", async () => {
    const { db } = database;
    await expect(
      db.transaction(async (tx) => {
        expect(await upsert(tx).execute({ key: 'prepared.a', value: { n: 1 } })).toEqual([{ key: 'prepared.a', value: { n: 1 } }]);
        expect(await settingByKey(tx).execute({ key: 'prepared.a' })).toEqual([{ value: { n: 1 } }]);
        if (database.kind === 'postgres') {
          // Named on the transaction's own connection.
          const named = await tx.execute(sql`select name from pg_prepared_statements where name like 'test_setting_%' order by name`);
          expect((named as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual(['test_setting_by_key', 'test_setting_upsert']);
        }
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await settingByKey(db).execute({ key: 'prepared.a' })).toEqual([]);
    expect(await db.select().from(settings).where(eq(settings.key, 'prepared.a'))).toEqual([]);
  });

  it('runs on the database, committed rows and all, in as many transactions as come, built once', async () => {
    const { db } = database;
    await upsert(db).execute({ key: 'prepared.b', value: 'раз' });
    const read = (tx: typeof db, i: number) =>
      upsert(tx)
        .execute({ key: `prepared.c${i}`, value: i })
        .then(() => settingByKey(tx).execute({ key: `prepared.c${i}` }));
    const answers = await Promise.all([1, 2, 3, 4].map((i) => db.transaction((tx) => read(tx, i))));
    expect(answers).toEqual([1, 2, 3, 4].map((i) => [{ value: i }]));
    expect(await settingByKey(db).execute({ key: 'prepared.b' })).toEqual([{ value: 'раз' }]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  // On PostgreSQL, as the tests open it (`likePglite`), so that a file run there alone finds it too (ADR 094).
  it("run on the database from inside a transaction's work, is refused, not run in it (on PGlite it would wait forever)", async () => {
    const { db } = database;
    await db.transaction(async () => {
      await expect(settingByKey(db).execute({ key: 'prepared.b' })).rejects.toMatchObject({ cause: expect.any(WaitsForItsOwnTransaction) });
    });
  });

  it("maps its rows with a mapper made once for its fields, to the objects drizzle's own run gives", async () => {
    const { db } = database;
    await upsert(db).execute({ key: 'prepared.m1', value: { a: [1, 'два'] } });
    await upsert(db).execute({ key: 'prepared.m1.child', value: 7 });
    await upsert(db).execute({ key: 'prepared.m2', value: null });
    const rows = await settingsWithChild(db).execute();
    expect(rows).toEqual(await withChild(db));
    expect(rows).toEqual([
      { key: 'prepared.m1', value: { a: [1, 'два'] }, child: { key: 'prepared.m1.child', value: 7 }, n: 11 },
      { key: 'prepared.m1.child', value: 7, child: null, n: 17 },
      { key: 'prepared.m2', value: null, child: null, n: 11 },
    ]);
    // Installed where drizzle's execute reads it (a renamed field in a new drizzle would leave it unused).
    expect((settingsWithChild(db) as unknown as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf('function');
  });
});
