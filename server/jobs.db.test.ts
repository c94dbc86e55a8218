import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, RECURRING_JOBS, type RunningServer } from './server.ts';
import { createTestDatabase } from './test/database.ts';
import { testEnv } from './test/app.ts';
import { createUser } from './db/factories.ts';
import { createProject } from './db/catalog-factories.ts';
import { projects } from './modules/projects/schema.ts';
import { settings } from './platform/schema.ts';
import { outbox } from './platform/schema.ts';
import { RATES_REFRESH_MS } from '#contract/constants';

// The crypto-price service, counting the calls.
let calls = 0;
const fake = http.createServer((_req, res) => {
  calls++;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ bitcoin: { rub: 8_500_000 }, tether: { rub: 95.5 } }));
});
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const servers: RunningServer[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const s of servers) await s.app.close();
  await database.drop();
  fake.close();
});

async function boot(): Promise<RunningServer> {
  const env = testEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    RATES_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/price`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-jobs-')),
  });
  const server = await startServer(env, pino({ level: 'silent' }), { database });
  servers.push(server);
  return server;
}

const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('recurring jobs', () => {
  it('run through the outbox: once at the first boot, then on their schedule; rates at once whenever none is held', async () => {
    const customer = await createUser(database.db);
    const stale = await createProject(database.db, customer.id);
    await database.db.update(projects).set({ createdAt: sql`now() - interval '31 days'` }).where(eq(projects.id, stale.id));

    const first = await boot();
    const status = async () => (await database.db.select().from(projects).where(eq(projects.id, stale.id)))[0]?.status;
    await until(async () => (await first.app.services.rates.held()) && (await status()) === 'archived');
    expect(calls).toBe(1);

    // One pending row per job, due a period after its run.
    await until(async () => (await database.db.select().from(outbox)).every((r) => r.attempts === 0));
    const rows = await database.db.select().from(outbox).orderBy(outbox.name);
    expect(RECURRING_JOBS.map((r) => r.job).sort()).toEqual(rows.map((r) => r.name));
    expect(rows.map((r) => [r.kind, r.name, r.dedupeKey, r.state])).toEqual([
      ['job', 'archive-stale-projects', 'archive-stale-projects', 'pending'],
      ['job', 'orders-stage-funding', 'orders-stage-funding', 'pending'],
      ['job', 'payments-deals', 'payments-deals', 'pending'],
      ['job', 'payments-payouts', 'payments-payouts', 'pending'],
      ['job', 'payments-poll', 'payments-poll', 'pending'],
      ['job', 'payments-reconcile', 'payments-reconcile', 'pending'],
      ['job', 'payments-refunds', 'payments-refunds', 'pending'],
      ['job', 'privacy-anonymise-due', 'privacy-anonymise-due', 'pending'],
      ['job', 'rates-refresh', 'rates-refresh', 'pending'],
      ['job', 'reviews-rating-window', 'reviews-rating-window', 'pending'],
      ['job', 'uploads-cleanup', 'uploads-cleanup', 'pending'],
    ]);
    const ratesDue = rows.find((r) => r.name === 'rates-refresh')!.dueAt.getTime();
    expect(ratesDue).toBeGreaterThan(Date.now() + RATES_REFRESH_MS - 60_000);

    // Another instance (or a restart) with rates held: nothing runs before its time.
    await boot();
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls).toBe(1);
    expect(await database.db.select().from(outbox)).toHaveLength(RECURRING_JOBS.length);

    // No rates held at boot: fetched at once.
    await database.db.delete(settings).where(eq(settings.key, 'rates'));
    await boot();
    await until(() => calls === 2);
    expect(await database.db.select().from(outbox)).toHaveLength(RECURRING_JOBS.length);
  });
});
