import { AsyncResource } from 'node:async_hooks';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import type { Db } from '../db/client.ts';
import { createPlatform } from './platform.ts';
import { SettingsService } from './settings.ts';
import { settings as settingsTable } from './schema.ts';
import { systemActor } from './actor.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(() => database.drop());

/** Fails with a clear message instead of hanging the test until its timeout. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);

describe('the settings cache', () => {
  it('keeps the newest read as the latest, even when a change is forgotten while it is under way', async () => {
    const { db } = database;
    const platform = createPlatform({ db, log: pino({ level: 'silent' }), dispatcher: { pollMs: 3_600_000 } });
    const service = new SettingsService(db, platform.withTx, pino({ level: 'silent' }));
    await db.insert(settingsTable).values({ key: 'brand.name', value: 'Биржа задач' }).onConflictDoUpdate({ target: settingsTable.key, set: { value: 'Биржа задач' } });
    // An admin's change reads the settings back while its own outbox job (every instance forgets) already runs.
    const reading = service.all();
    service.forget();
    expect((await reading)['brand.name']).toBe('Биржа задач');
    expect(service.latest()['brand.name']).toBe('Биржа задач');
    await db.delete(settingsTable).where(eq(settingsTable.key, 'brand.name'));
  });

  it('does not hand a transaction a read that waits behind it (a deadlock on PGlite)', async () => {
    const { db } = database;
    const platform = createPlatform({ db, log: pino({ level: 'silent' }), dispatcher: { pollMs: 3_600_000 } });
    const service = new SettingsService(db, platform.withTx, pino({ level: 'silent' }));
    await db.insert(settingsTable).values({ key: 'orders.autoAcceptDays', value: 5 }).onConflictDoUpdate({ target: settingsTable.key, set: { value: 5 } });
    // A page's read through the pool starts while a webhook's transaction is open; on PGlite it waits for the
    // transaction's end. The transaction then needs the settings too: it must read them itself.
    let outside: Promise<unknown> | undefined;
    // The page's read, started from the page's own context (not the transaction's work).
    const pageReads = AsyncResource.bind(() => void (outside = service.all()));
    const inside = await within(
      db.transaction(async (tx) => {
        pageReads();
        return service.get('orders.autoAcceptDays', tx as unknown as Db);
      }),
      10_000,
    );
    expect(inside).toBe(5);
    expect(await outside).toMatchObject({ 'orders.autoAcceptDays': 5 });
    // Once settled, the cached read serves transactions too.
    expect(await within(db.transaction(async (tx) => service.get('orders.autoAcceptDays', tx as unknown as Db)), 10_000)).toBe(5);
  });

  it("reads through the transaction open in the caller's context when not handed one", async () => {
    const { db } = database;
    const platform = createPlatform({ db, log: pino({ level: 'silent' }), dispatcher: { pollMs: 3_600_000 } });
    const service = new SettingsService(db, platform.withTx, pino({ level: 'silent' }));
    await db.insert(settingsTable).values({ key: 'orders.draftHours', value: 7 }).onConflictDoUpdate({ target: settingsTable.key, set: { value: 7 } });
    // A command deep in a webhook's transaction asks without its tx, the cache cold: it reads what the transaction sees.
    const read = platform.withTx(systemActor('test'), async ({ tx }) => {
      await tx.update(settingsTable).set({ value: 8 }).where(eq(settingsTable.key, 'orders.draftHours'));
      return service.get('orders.draftHours');
    });
    expect(await within(read, 10_000)).toBe(8);
    expect(platform.withTx.current()).toBeUndefined();
  });
});
