import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import type { Database } from '../../db/client.ts';
import { runChild, withDatabase } from '../../test/child-process.ts';
import { outbox } from '../../platform/schema.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { orders } from '../orders/schema.ts';
import { payments, webhookEvents } from './schema.ts';
import { checkLedger } from '../ledger/index.ts';
import { SANDBOX_WEBHOOK_JOB } from './providers/sandbox/index.ts';

// Issue 12: "The server is killed with SIGKILL in the middle of a webhook; the provider retries. After a restart
// the order is paid once and ledger:check passes." Its processes run through server/test/child-process.ts, as in server/platform/crash.db.test.ts.

const onPostgres = process.env.TEST_DB === 'postgres';

// PostgreSQL: a database of this file's own; PGlite: a data directory the processes take turns on.
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase({ reference: false });
});
afterAll(() => database?.drop());

const run = (args: string[], env: Record<string, string>) => runChild(args, env, database?.url);
const withDb = <T>(dataDir: string, fn: (db: Database['db']) => Promise<T>) => withDatabase(database, dataDir, fn);

const count = (rows: unknown[]) => rows.length;

describe('a server killed with SIGKILL in the middle of a webhook', () => {
  it('applies the retried webhook after a restart: the order is paid once and ledger:check passes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-webhook-crash-'));
    const env = { DATA_DIR: dataDir };

    const doomed = run(['server/test/webhook-crash-child.ts'], env);
    const { orderId, paymentId, token } = JSON.parse((await doomed.waitFor(/^setup (.+)$/m))[1]!) as { orderId: string; paymentId: string; token: string };
    expect((await doomed.exited).signal).toBe('SIGKILL');
    // It died inside the webhook's transaction, not before it.
    expect(doomed.output()).toMatch(/^dying$/m);

    // Nothing of the transaction survived: no money moved, the order still waits, the webhook's event id is not
    // recorded (else the retry would be taken for a replay), and its outbox job is still pending.
    await withDb(dataDir, async (db) => {
      expect((await db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status).toBe('awaiting_payment');
      expect(await db.select().from(payments).where(eq(payments.id, paymentId))).toMatchObject([{ status: 'pending' }]);
      expect(count(await db.select().from(ledgerTransfers))).toBe(0);
      expect(await db.select().from(webhookEvents)).toEqual([]);
      const jobs = await db.select().from(outbox).where(and(eq(outbox.name, SANDBOX_WEBHOOK_JOB), eq(outbox.state, 'pending')));
      expect(jobs).toHaveLength(1);
      // The dead instance's lease on the job (2 minutes) runs out: the time passes here instead of in the test.
      await db.update(outbox).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(outbox.id, jobs[0]!.id));
    });

    // The restarted server's dispatcher takes the job again and the provider's webhook arrives once more.
    const restarted = run(['server/main.ts'], env);
    const url = (await restarted.waitFor(/running at (http:\/\/\S+)/))[1]!.replace('localhost', '127.0.0.1');
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline) {
      const res = await fetch(`${url}/api/orders/${orderId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      status = ((await res.json()) as { result: { status: string } }).result.status;
      if (status === 'in_progress') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('in_progress');
    // A moment for a second application to show up, were there one.
    await new Promise((r) => setTimeout(r, 1500));
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);

    await withDb(dataDir, async (db) => {
      expect((await db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status).toBe('in_progress');
      const paid = await db.select().from(payments).where(eq(payments.orderId, orderId));
      expect(paid.map((p) => p.status)).toEqual(['succeeded']);
      expect(count(await db.select().from(ledgerTransfers).where(eq(ledgerTransfers.key, `payment:${paymentId}`)))).toBe(1);
      expect(count(await db.select().from(ledgerTransfers).where(eq(ledgerTransfers.key, `escrow:${orderId}`)))).toBe(1);
      expect(count(await db.select().from(ledgerTransfers))).toBe(2);
      expect(count(await db.select().from(webhookEvents))).toBe(1);
      expect(await db.select().from(outbox).where(eq(outbox.name, SANDBOX_WEBHOOK_JOB))).toEqual([]);
      expect((await checkLedger(db)).problems).toEqual([]);
    });

    // The operator's reconciliation command agrees (on the same database, as the server would open it).
    const check = run(['server/modules/ledger/check-command.ts'], env);
    expect((await check.exited).code, check.output()).toBe(0);
    expect(check.output()).toMatch(/balances, transfers and chain agree/);
  }, 180_000);
});
