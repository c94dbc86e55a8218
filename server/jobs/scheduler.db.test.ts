import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema/system.ts';
import { Scheduler } from './scheduler.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ reference: false });
});
afterAll(() => database.drop());

describe('Scheduler', () => {
  it('runs a due job once however many instances claim it together', async () => {
    let runs = 0;
    const job = { name: 'count', everyMs: 60_000, run: async () => void runs++ };
    const instances = [1, 2, 3].map(() => new Scheduler(database.db, pino({ level: 'silent' })));
    for (const s of instances) s.add(job);
    await Promise.all(instances.map((s) => s.start()));
    await Promise.all(instances.map((s) => s.runIfDue(job)));
    await Promise.all(instances.map((s) => s.stop()));
    expect(runs).toBe(1);
  });

  it('records a failing job and keeps going', async () => {
    const scheduler = new Scheduler(database.db, pino({ level: 'silent' }));
    const job = { name: 'fails', everyMs: 60_000, run: async () => Promise.reject(new Error('boom')) };
    scheduler.add(job);
    await scheduler.start();
    await scheduler.runIfDue(job, true);
    await scheduler.stop();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.name, 'fails'));
    expect(row?.lastError).toContain('boom');
  });
});
