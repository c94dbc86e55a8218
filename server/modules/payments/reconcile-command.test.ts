import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';

// `npm run payments:reconcile` (reconcile-command.ts) on a database of its own, against the fake ЮKassa: its
// payouts are read too (GET /v3/payouts with the payouts gateway's credentials), and one naming no withdrawal of
// ours is printed with what to do and fails the check; a safe deal's payout of a seller's share is not.

const root = path.resolve(import.meta.dirname, '../../..');
let fake: FakeYookassa;
let dataDir: string;

beforeAll(async () => {
  fake = await startFakeYookassa();
  dataDir = mkdtempSync(path.join(tmpdir(), 'reconcile-command-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The command as `npm run payments:reconcile -- --day <day>` runs it; the fake keeps answering meanwhile. */
function reconcile(day: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/modules/payments/reconcile-command.ts', '--day', day], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      RATES_URL: '',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://127.0.0.1:3000',
      YOOKASSA_SHOP_ID: fake.shopId,
      YOOKASSA_SECRET_KEY: fake.secretKey,
      YOOKASSA_API_URL: `${fake.url}/v3`,
      YOOKASSA_WEBHOOK_IPS: '127.0.0.1',
      YOOKASSA_PAYOUT_AGENT_ID: fake.agentId,
      YOOKASSA_PAYOUT_SECRET_KEY: fake.agentSecretKey,
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('npm run payments:reconcile', () => {
  it('compares ЮKassa’s payouts of the day too', async () => {
    const stranger = fake.payoutDesk.addPayout('300.00', 'succeeded', { metadata: { note: 'из кабинета' } });
    const share = fake.payoutDesk.addPayout('1200.00', 'succeeded', { dealId: 'dl-2f3b588d' });
    const { code, out } = await reconcile(new Date().toISOString().slice(0, 10));
    expect(out).toContain(`payout_unknown ${stranger}: Выплата у провайдера не связана с нашими выводами`);
    expect(out).not.toContain(share);
    expect(out).toContain('reconcile: 1 unresolved difference(s), see /admin/payments');
    expect(code).toBe(1);
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/v3/payouts')).toHaveLength(1);
  }, 120_000);
});
