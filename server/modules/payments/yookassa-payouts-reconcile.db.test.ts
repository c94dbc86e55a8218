import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../ledger/index.ts';
import type { UserRow } from '../users/schema.ts';
import { paymentDifferences, withdrawals } from './schema.ts';
import { DIFFERENCE_TEXTS } from '#contract/payment-differences';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import type { YookassaProvider } from './providers/yookassa/provider.ts';
import { fakeProvidersEnv } from '../../test/payment-fakes.ts';

// ЮKassa's payouts in the daily reconciliation (issue 27, ADR 056), against the fake ЮKassa: the gateway's payouts
// of the day as GET /v3/payouts lists them (every cursor page, the payouts gateway's own credentials) against our
// card and wallet withdrawals. A day that agrees finds nothing; each difference is found once, and once again on a
// re-run; a payout of a seller's share out of a safe deal is not a withdrawal's; ours paid and not in the list is
// asked for by its id.

let t: Awaited<ReturnType<typeof createTestApp>>;
let fake: FakeYookassa;
let admin: UserRow;
const DAY = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  fake = await startFakeYookassa();
  t = await createTestApp(fakeProvidersEnv({ yookassa: fake }));
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
  admin = await createUser(db(), { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;
const yookassa = () => t.app.services.payments.providers.byName('yookassa') as YookassaProvider;
const withdrawalOf = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
const reconcile = () => t.app.services.payments.reconcile(DAY);
const found = (reports: Awaited<ReturnType<typeof reconcile>>) => reports.flatMap((r) => r.found.map((f) => `${r.provider}:${f.kind}:${f.providerRef}`)).sort();
const payoutGets = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/v3/payouts').length;

async function call(user: UserRow, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await t.app.services.tokens.sign(user)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A seller's 5 000 ₽ asked to a card (tokenised by the fake's widget) or a ЮMoney wallet, approved, and its payout
 * made at the fake (pending): the withdrawal is «Отправляется».
 */
async function sent(method: 'card' | 'yoomoney') {
  const user = await createUser(db(), { role: 'seller' });
  await t.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `test-fund:${user.id}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -500_000 },
        { account: { kind: 'available', userId: user.id }, amount: 500_000 },
      ],
    }),
  );
  let body: Record<string, unknown> = { amount: 500_000, method, destination: '410011758831136' };
  if (method === 'card') {
    const res = await fetch(`${fake.url}/payouts-data/tokens`, { method: 'POST', body: JSON.stringify({ account_id: fake.agentId, card_number: '2202201234567895' }) });
    const { payout_token, first6, last4, card_type } = (await res.json()) as Record<string, string>;
    body = { amount: 500_000, method, payout_token, card: { first6, last4, card_type } };
  }
  const asked = await call(user, 'POST', '/api/withdrawals', body);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  const id = asked.body.result._id as string;
  expect((await call(admin, 'POST', `/api/admin/withdrawals/${id}/approve`)).body.result.status).toBe('sending');
  await until(async () => (await withdrawalOf(id)).payoutRef !== null);
  return { id, ref: (await withdrawalOf(id)).payoutRef! };
}

/** Sent, and then paid (or cancelled) at ЮKassa with its notification: ours follows. */
async function settled(method: 'card' | 'yoomoney', outcome: 'succeeded' | 'canceled') {
  const w = await sent(method);
  await (outcome === 'succeeded' ? fake.payoutDesk.succeedPayout(w.ref) : fake.payoutDesk.cancelPayout(w.ref));
  await until(async () => (await withdrawalOf(w.id)).status === (outcome === 'succeeded' ? 'approved' : 'returned'));
  return w;
}

describe('ЮKassa’s payouts in the daily reconciliation', () => {
  it('finds nothing on a day whose payouts agree, reading every page of the list', async () => {
    await settled('card', 'succeeded');
    await settled('yoomoney', 'succeeded');
    await settled('card', 'canceled');
    // A seller's share paid out of a safe deal: no withdrawal of ours, and not a stranger.
    fake.payoutDesk.addPayout('1200.00', 'succeeded', { dealId: 'dl-2f3b588d', metadata: { order_id: 'x' } });
    yookassa().payouts.pageSize = 1;
    const before = payoutGets();

    const reports = await reconcile();
    expect(reports.map((r) => [r.provider, r.listed, r.found])).toEqual([['yookassa', 4, []]]);
    expect(payoutGets() - before).toBe(4); // one payout a page: four pages, the last without next_cursor
    expect(await db().select().from(paymentDifferences)).toEqual([]);
    yookassa().payouts.pageSize = 100;
  });

  it('asks for a payout of ours the day’s list lacks (made just before midnight) and finds it paid', async () => {
    const yesterday = new Date(Date.parse(`${DAY}T00:00:00Z`) - 60_000);
    fake.now = () => yesterday;
    const w = await sent('card');
    fake.now = () => new Date();
    await fake.payoutDesk.succeedPayout(w.ref);
    await until(async () => (await withdrawalOf(w.id)).status === 'approved');
    const reports = await reconcile();
    expect(reports[0]!.found).toEqual([]);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v3/payouts/${w.ref}`)).toBe(true);
  });

  it("skips an earlier try of ours ЮKassa cancelled, and finds a second payout of one withdrawal that was not", async () => {
    const w = await settled('yoomoney', 'succeeded');
    // A payout out of a deal refused, then sent again to other details (ADR 053): the first try names the same withdrawal.
    fake.payoutDesk.addPayout('5000.00', 'canceled', { metadata: { withdrawalId: w.id } });
    expect((await reconcile())[0]!.found).toEqual([]);
    const twice = fake.payoutDesk.addPayout('5000.00', 'succeeded', { metadata: { withdrawalId: w.id } });
    expect((await reconcile())[0]!.found).toEqual([expect.objectContaining({ kind: 'payout_unknown', providerRef: twice, details: expect.objectContaining({ withdrawal_id: w.id }) })]);
    fake.payoutDesk.payouts.get(twice)!.status = 'canceled';
    expect((await reconcile())[0]!.found).toEqual([]);
    // The next test counts its own differences only.
    await db().delete(paymentDifferences);
  });

  it('finds each kind of difference once, and once again on a re-run', async () => {
    // Paid at ЮKassa, its notification lost and the poll not yet come: ours still «Отправляется».
    const lagging = await sent('card');
    await fake.payoutDesk.succeedPayout(lagging.ref, { notify: false });
    // Cancelled, so back on the seller's balance here; and then paid there after all: the seller has it twice.
    const twice = await settled('yoomoney', 'canceled');
    fake.payoutDesk.payouts.get(twice.ref)!.status = 'succeeded';
    // Done here (the money left the ledger), cancelled there afterwards.
    const cancelled = await settled('card', 'succeeded');
    fake.payoutDesk.payouts.get(cancelled.ref)!.status = 'canceled';
    // Done here, and ЮKassa does not know the payout at all: not in its list, and GET answers 404.
    const vanished = await settled('yoomoney', 'succeeded');
    fake.payoutDesk.payouts.delete(vanished.ref);
    // Paid there with another amount than the withdrawal's.
    const short = await settled('card', 'succeeded');
    fake.payoutDesk.payouts.get(short.ref)!.amount.value = '4990.00';
    // Made in ЮKassa's cabinet, naming no withdrawal of ours; and a cancelled stranger, which took no money.
    const stranger = fake.payoutDesk.addPayout('300.00', 'succeeded', { metadata: { note: 'из кабинета' } });
    fake.payoutDesk.addPayout('300.00', 'canceled');

    const expected = [
      `yookassa:payout_amount:${short.ref}`,
      `yookassa:payout_not_at_provider:${cancelled.ref}`,
      `yookassa:payout_not_at_provider:${vanished.ref}`,
      `yookassa:payout_returned:${twice.ref}`,
      `yookassa:payout_unknown:${stranger}`,
      `yookassa:payout_unsettled:${lagging.ref}`,
    ].sort();
    expect(found(await reconcile())).toEqual(expected);
    expect(found(await reconcile())).toEqual(expected);
    const rows = await db().select().from(paymentDifferences);
    expect(rows.map((r) => `${r.provider}:${r.kind}:${r.providerRef}`).sort()).toEqual(expected);
    expect(rows.every((r) => r.day === DAY && r.resolvedAt === null)).toBe(true);
    const row = (ref: string) => rows.find((r) => r.providerRef === ref)!;
    expect(row(short.ref).details).toMatchObject({ provider_amount: 499_000, provider_currency: 'RUB', our_amount: 500_000, withdrawal_id: short.id, provider_state: 'succeeded' });
    expect(row(vanished.ref).details).toMatchObject({ provider_state: 'unknown', withdrawal_id: vanished.id, our_status: 'approved' });
    expect(row(cancelled.ref).details).toMatchObject({ provider_state: 'canceled', withdrawal_id: cancelled.id });
    expect(row(twice.ref).details).toMatchObject({ provider_state: 'succeeded', our_status: 'returned' });
    expect(row(stranger).details).toMatchObject({ provider_amount: 30_000, provider_withdrawal_id: null });

    // The admin page shows them with what to do; only the lagging one can be applied.
    const page = await call(admin, 'GET', '/api/admin/payment-differences?limit=100');
    expect(page.status).toBe(200);
    const shown = page.body.result as { kind: keyof typeof DIFFERENCE_TEXTS; provider_ref: string; can_apply: boolean }[];
    expect(shown.filter((d) => d.can_apply).map((d) => d.provider_ref)).toEqual([lagging.ref]);
    expect(shown.find((d) => d.provider_ref === short.ref)!.kind).toBe('payout_amount');
    expect(DIFFERENCE_TEXTS.payout_amount.serious).toBe(true);

    // Applying the lagging one asks ЮKassa, as the poll would: the withdrawal is done, the difference resolved.
    const applied = await call(admin, 'POST', `/api/admin/payment-differences/${row(lagging.ref).id}/apply`);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await withdrawalOf(lagging.id)).status).toBe('approved');
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${row(short.ref).id}/apply`)).status).toBe(409);
    // A later run no longer finds it, and finds the rest as before.
    expect(found(await reconcile())).toEqual(expected.filter((k) => !k.includes(lagging.ref)));
  });
});

describe('the fake ЮKassa’s list of payouts', () => {
  const list = async (query: string, login = `${fake.agentId}:${fake.agentSecretKey}`) => {
    const res = await fetch(`${fake.url}/v3/payouts?${query}`, { headers: { authorization: `Basic ${Buffer.from(login).toString('base64')}` } });
    return { status: res.status, body: (await res.json()) as { type: string; items?: { id: string; status: string; payout_destination: { type: string } }[]; next_cursor?: string; code?: string; parameter?: string } };
  };

  it('takes only the payouts gateway’s credentials, filters by status, destination and creation time, and pages by cursor', async () => {
    expect((await list('limit=1', `${fake.shopId}:${fake.secretKey}`)).status).toBe(401);
    const first = await list('status=succeeded&payout_destination.type=yoo_money&limit=1');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.items![0]).toMatchObject({ status: 'succeeded', payout_destination: { type: 'yoo_money' } });
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(`status=succeeded&payout_destination.type=yoo_money&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.body.items!.map((p) => p.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    const wanted = [...fake.payoutDesk.payouts.values()].filter((p) => p.status === 'succeeded' && p.payout_destination?.type === 'yoo_money');
    expect(all.sort()).toEqual(wanted.map((p) => p.id).sort());
    expect((await list(`created_at.gte=${new Date(Date.now() + 86_400_000).toISOString()}`)).body).toEqual({ type: 'list', items: [] });
    expect((await list('limit=101')).body).toMatchObject({ type: 'error', code: 'invalid_request', parameter: 'limit' });
    expect((await list('status=paid')).body).toMatchObject({ code: 'invalid_request', parameter: 'status' });
    expect((await list('cursor=bm9wZQ')).status).toBe(400);
  });
});
