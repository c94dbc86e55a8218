import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import type { Database } from '../../db/client.ts';
import { runChild, withDatabase } from '../../test/child-process.ts';
import { outbox } from '../../platform/schema.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { orders } from '../orders/schema.ts';
import { payments } from './schema.ts';
import { checkLedger } from '../ledger/index.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';

// Issue 27: "SIGKILL between the provider's answer and our commit: after restart, exactly one charge and one ledger
// transfer." ЮKassa made the payment, the customer paid it, and we never wrote its id down: the restarted server's
// poll asks ЮKassa again under the same idempotence key, finds that payment (not a second one), and settles it once.

const onPostgres = process.env.TEST_DB === 'postgres';
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let fake: FakeYookassa;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase({ reference: false });
  fake = await startFakeYookassa();
});
afterAll(async () => {
  await database?.drop();
  await fake.close();
});

const run = (args: string[], env: Record<string, string>) => runChild(args, env, database?.url);
const withDb = <T>(dataDir: string, fn: (db: Database['db']) => Promise<T>) => withDatabase(database, dataDir, fn);

describe('a server killed between ЮKassa’s answer and its own commit', () => {
  it('finds the payment again after a restart: one charge at ЮKassa, one arrival in the ledger', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-provider-crash-'));
    const env = {
      DATA_DIR: dataDir,
      YOOKASSA_SHOP_ID: fake.shopId,
      YOOKASSA_SECRET_KEY: fake.secretKey,
      YOOKASSA_API_URL: `${fake.url}/v3`,
      YOOKASSA_WEBHOOK_IPS: '127.0.0.1,::1',
      // A provider call made again must be the same call: its return address cannot be this process's own port.
      PUBLIC_URL: 'https://podryad.example',
    };
    const doomed = run(['server/test/provider-crash-child.ts'], env);
    const { orderId, paymentId, token } = JSON.parse((await doomed.waitFor(/^setup (.+)$/m))[1]!) as { orderId: string; paymentId: string; token: string };
    expect((await doomed.exited).signal).toBe('SIGKILL');
    expect(doomed.output()).toMatch(/^dying$/m);

    // ЮKassa has the payment, and the customer pays it while we are down (its notification finds no one).
    const made = [...fake.payments.values()].filter((p) => p.metadata?.payment_id === paymentId);
    expect(made).toHaveLength(1);
    await fake.pay(made[0]!.id, { notify: false });

    await withDb(dataDir, async (db) => {
      expect(await db.select().from(payments).where(eq(payments.id, paymentId))).toMatchObject([{ status: 'pending', providerRef: null }]);
      expect(await db.select().from(ledgerTransfers)).toEqual([]);
      // The poll waits a minute for a webhook, and runs every minute: the time passes here instead of in the test.
      await db.update(payments).set({ createdAt: new Date(Date.now() - 5 * 60_000) }).where(eq(payments.id, paymentId));
      await db.update(outbox).set({ dueAt: new Date(Date.now() - 1000), lockedUntil: null }).where(eq(outbox.name, 'payments-poll'));
    });

    const restarted = run(['server/main.ts'], env);
    const url = (await restarted.waitFor(/running at (http:\/\/\S+)/))[1]!.replace('localhost', '127.0.0.1');
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline && status !== 'in_progress') {
      const res = await fetch(`${url}/api/orders/${orderId}`, { headers: { authorization: `Bearer ${token}` } });
      status = ((await res.json()) as { result: { status: string } }).result.status;
      if (status !== 'in_progress') await new Promise((r) => setTimeout(r, 200));
    }
    expect(restarted.output()).not.toMatch(/Idempotence key duplicated/);
    expect(status).toBe('in_progress');
    // ЮKassa's late notification now finds the payment: nothing more happens.
    fake.webhookUrl = `${url}/api/payments/webhooks/yookassa`;
    expect(await fake.notify(made[0]!.id)).toBe(200);
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);

    expect([...fake.payments.values()].filter((p) => p.metadata?.payment_id === paymentId)).toHaveLength(1);
    await withDb(dataDir, async (db) => {
      expect(await db.select().from(payments).where(eq(payments.id, paymentId))).toMatchObject([{ status: 'succeeded', providerRef: made[0]!.id }]);
      expect(await db.select().from(ledgerTransfers).where(like(ledgerTransfers.key, `payment:${paymentId}%`))).toHaveLength(1);
      expect((await db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status).toBe('in_progress');
      expect((await checkLedger(db)).problems).toEqual([]);
    });
  }, 180_000);
});
