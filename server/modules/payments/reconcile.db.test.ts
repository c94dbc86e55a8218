import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { auditLog } from '../../platform/schema.ts';
import { postTransfer } from '../ledger/index.ts';
import type { UserRow } from '../users/schema.ts';
import { paymentDifferences, payments, withdrawals } from './schema.ts';
import { DIFFERENCE_TEXTS } from '#contract/payment-differences';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import { startFakeBtcpay, type FakeBtcpay } from './providers/btcpay/fake.ts';
import { fakeProvidersEnv, holdRates } from '../../test/payment-fakes.ts';
import { GONE_NOTE } from './commands/reconcile.ts';

// The daily reconciliation (issue 27) against a local ЮKassa and a local BTCPay at once: a day whose payments all
// agree reports nothing; each kind of difference is found, once, and once again on a re-run; applying the
// provider's outcome settles the payment and resolves the difference; the admin resolves the others with a note.

let t: Awaited<ReturnType<typeof createTestApp>>;
let yk: FakeYookassa;
let btc: FakeBtcpay;
let seller: UserRow;
let admin: UserRow;
const actor = systemActor('test');
const DAY = new Date().toISOString().slice(0, 10);
let n = 0;

beforeAll(async () => {
  yk = await startFakeYookassa();
  btc = await startFakeBtcpay();
  t = await createTestApp(fakeProvidersEnv({ yookassa: yk, btcpay: btc }));
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  yk.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
  btc.webhookUrl = `${base}/api/payments/webhooks/btcpay`;
  seller = await createUser(db(), { role: 'seller' });
  admin = await createUser(db(), { role: 'admin' });
  await holdRates(db(), t.app);
});
afterAll(async () => {
  await t.close();
  await yk.close();
  await btc.close();
});

const db = () => t.database.db;
const service = () => t.app.services.payments;

async function call(user: UserRow, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await t.app.services.tokens.sign(user)}`, 'idempotency-key': randomUUID(), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

async function order(buyer: UserRow, price: number) {
  await t.app.services.settings.all();
  const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
    t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price, days: 3, revisions: 2 }),
  );
  return order;
}

/** A payment started by a new customer: by card (ЮKassa) or in BTC (BTCPay). */
async function started(method: 'card' | 'btc') {
  const buyer = await createUser(db());
  const o = await order(buyer, method === 'card' ? 150_000 : 500_000);
  let body: Record<string, unknown> = { order_id: o.id, method };
  if (method === 'btc') body = { ...body, quote_id: (await call(buyer, 'POST', '/api/payments/quote', { order_id: o.id, method })).body.result._id };
  const paid = await call(buyer, 'POST', '/api/payments/pay', body);
  expect(paid.status).toBe(200);
  return paymentOf(paid.body.result.payment_id);
}

const paymentOf = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const rowsOf = (kind: string, ref: string) =>
  db().select().from(paymentDifferences).where(and(eq(paymentDifferences.kind, kind as 'unsettled'), eq(paymentDifferences.providerRef, ref)));
const kinds = (reports: Awaited<ReturnType<typeof reconcile>>) =>
  reports.flatMap((r) => r.found.map((f) => `${r.provider}:${f.kind}:${f.providerRef}`)).sort();
const reconcile = () => service().reconcile(DAY);

describe('reconciliation with the providers', () => {
  it('reports nothing for a day whose payments agree with the providers and the ledger', async () => {
    const card = await started('card');
    await yk.pay(card.providerRef!);
    const coin = await started('btc');
    await btc.pay(coin.providerRef!, coin.currencyAmount, { confirmed: true });
    const failed = await started('card');
    await yk.cancel(failed.providerRef!);
    expect((await paymentOf(card.id)).status).toBe('succeeded');
    expect((await paymentOf(coin.id)).status).toBe('succeeded');

    const reports = await reconcile();
    expect(reports.map((r) => [r.provider, r.listed, r.found])).toEqual([
      ['yookassa', 2, []],
      ['btcpay', 1, []],
    ]);
    expect(await db().select().from(paymentDifferences)).toEqual([]);
  });

  it('finds each kind of difference once, and once again on a re-run', async () => {
    // Paid at ЮKassa, the notification lost and the poll not yet come.
    const unsettled = await started('card');
    await yk.pay(unsettled.providerRef!, { notify: false });
    // Settled here while ЮKassa has it pending.
    const phantom = await started('card');
    await db().update(payments).set({ status: 'credited', receivedAmount: phantom.currencyAmount }).where(eq(payments.id, phantom.id));
    // BTCPay: half paid and expired (credited here), then the rest paid late while our webhook endpoint was unreachable.
    const late = await started('btc');
    const half = Math.floor(late.currencyAmount / 2);
    await btc.pay(late.providerRef!, half, { confirmed: true });
    await btc.expire(late.providerRef!);
    expect((await paymentOf(late.id)).receivedAmount).toBe(half);
    btc.webhookUrl = undefined;
    await btc.pay(late.providerRef!, late.currencyAmount - half, { confirmed: true });
    btc.webhookUrl = `${yk.webhookUrl!.replace('/yookassa', '/btcpay')}`;
    // A payment made in ЮKassa's dashboard, naming none of ours.
    const foreign = yk.addPayment('77.50', 'succeeded', { note: 'из кабинета' });
    // A settled payment whose ledger has one arrival too many.
    const booked = await started('card');
    await yk.pay(booked.providerRef!);
    await t.app.services.platform.withTx(actor, ({ tx }) =>
      postTransfer(tx, {
        kind: 'payment',
        key: `payment:${booked.id}:1`,
        orderId: booked.orderId,
        description: 'лишнее',
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -100 },
          { account: { kind: 'available', userId: booked.customerId }, amount: 100 },
        ],
      }),
    );

    const expected = [
      `btcpay:amount:${late.providerRef}`,
      `yookassa:ledger:${booked.providerRef}`,
      `yookassa:not_at_provider:${phantom.providerRef}`,
      `yookassa:unknown:${foreign}`,
      `yookassa:unsettled:${unsettled.providerRef}`,
    ].sort();
    expect(kinds(await reconcile())).toEqual(expected);
    const [row] = await rowsOf('amount', late.providerRef!);
    expect(row).toMatchObject({ provider: 'btcpay', day: DAY, paymentId: late.id, resolvedAt: null });
    expect(row!.details).toMatchObject({ provider_status: 'succeeded', provider_amount: late.currencyAmount, our_received: half, our_status: 'credited' });
    expect((await rowsOf('ledger', booked.providerRef!))[0]!.details).toMatchObject({ expected_kopecks: 150_000, ledger_kopecks: 150_100 });
    expect((await rowsOf('unknown', foreign))[0]).toMatchObject({ paymentId: null, details: { provider_amount: 7_750, provider_payment_id: null } });

    // Again: the same five, each still one row.
    expect(kinds(await reconcile())).toEqual(expected);
    expect(await db().select().from(paymentDifferences)).toHaveLength(5);
  });

  it('shows the differences to admins, unresolved first, with what can be applied', async () => {
    const res = await call(admin, 'GET', '/api/admin/payment-differences?limit=50');
    expect(res.status).toBe(200);
    const list = res.body.result as { kind: string; can_apply: boolean; resolved_at: string | null }[];
    expect(list.map((d) => [d.kind, d.can_apply]).sort()).toEqual([
      ['amount', true],
      ['ledger', false],
      ['not_at_provider', false],
      ['unknown', false],
      ['unsettled', true],
    ]);
    const customer = await createUser(db());
    expect((await call(customer, 'GET', '/api/admin/payment-differences')).status).toBe(403);
  });

  it('applies the provider’s outcome: the payment is settled, the difference resolved and audited, and a re-run keeps it so', async () => {
    const [unsettled] = await db().select().from(paymentDifferences).where(eq(paymentDifferences.kind, 'unsettled'));
    const applied = await call(admin, 'POST', `/api/admin/payment-differences/${unsettled!.id}/apply`);
    expect(applied.status).toBe(200);
    expect(applied.body.result).toMatchObject({ kind: 'unsettled', can_apply: false, resolution: expect.stringContaining('Применён результат провайдера') });
    expect(await paymentOf(unsettled!.paymentId!)).toMatchObject({ status: 'succeeded', receivedAmount: 150_000 });
    const trail = await db().select().from(auditLog).where(eq(auditLog.targetId, unsettled!.id));
    expect(trail.map((a) => [a.action, a.actorId])).toEqual([['payment_difference.apply', admin.id]]);
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${unsettled!.id}/apply`)).status).toBe(409);

    const [amount] = await db().select().from(paymentDifferences).where(eq(paymentDifferences.kind, 'amount'));
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${amount!.id}/apply`)).status).toBe(200);
    const late = await paymentOf(amount!.paymentId!);
    expect(late.receivedAmount).toBe(late.currencyAmount);

    // Money in the ledger the provider lacks is not something its outcome can fix.
    const [phantom] = await db().select().from(paymentDifferences).where(eq(paymentDifferences.kind, 'not_at_provider'));
    const refused = await call(admin, 'POST', `/api/admin/payment-differences/${phantom!.id}/apply`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/нельзя исправить/);

    const reports = await reconcile();
    expect(kinds(reports).map((k) => k.split(':')[1])).toEqual(['ledger', 'not_at_provider', 'unknown']);
    expect(await db().select().from(paymentDifferences)).toHaveLength(5);
  });

  it('resolves a difference with the admin’s note, once, audited; a later run resolves what it no longer finds', async () => {
    const [foreign] = await db().select().from(paymentDifferences).where(eq(paymentDifferences.kind, 'unknown'));
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${foreign!.id}/resolve`, { note: 'x' })).status).toBe(400);
    const done = await call(admin, 'POST', `/api/admin/payment-differences/${foreign!.id}/resolve`, { note: 'Возвращено в кабинете ЮKassa' });
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ resolution: 'Возвращено в кабинете ЮKassa', resolved_at: expect.any(String) });
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${foreign!.id}/resolve`, { note: 'ещё раз' })).status).toBe(409);
    const trail = await db().select().from(auditLog).where(eq(auditLog.targetId, foreign!.id));
    expect(trail).toMatchObject([{ action: 'payment_difference.resolve', actorId: admin.id, details: { reason: 'Возвращено в кабинете ЮKassa', kind: 'unknown' } }]);
    // Resolved, and still at the provider: a re-run leaves it resolved and adds no row.
    await reconcile();
    expect(await rowsOf('unknown', foreign!.providerRef)).toMatchObject([{ resolution: 'Возвращено в кабинете ЮKassa' }]);

    // The phantom payment really is paid at ЮKassa after all: the next run no longer finds it and resolves it.
    const [phantom] = await db().select().from(paymentDifferences).where(eq(paymentDifferences.kind, 'not_at_provider'));
    await yk.pay(phantom!.providerRef, { notify: false });
    await db().update(payments).set({ receivedAmount: 150_000 }).where(eq(payments.id, phantom!.paymentId!));
    await reconcile();
    expect(await rowsOf('not_at_provider', phantom!.providerRef)).toMatchObject([{ resolution: GONE_NOTE, resolvedBy: null }]);
  });

  it('shows an admin a payment in its provider’s own words', async () => {
    const card = await started('card');
    const view = await call(admin, 'GET', `/api/admin/payments/${card.id}/provider`);
    expect(view.status).toBe(200);
    expect(view.body.result).toMatchObject({ provider: 'yookassa', provider_ref: card.providerRef, status: 'pending', amount: '1500.00', currency: 'RUB' });
    expect(view.body.result.raw).toMatchObject({ id: card.providerRef, metadata: { payment_id: card.id } });
    const list = await call(admin, 'GET', '/api/admin/payments?method=card&limit=1');
    expect(list.body.result[0]).toMatchObject({ _id: card.id, provider: 'yookassa', provider_ref: card.providerRef });
    expect((await call(admin, 'GET', `/api/admin/payments/${randomUUID()}/provider`)).status).toBe(404);
    expect((await call(await createUser(db()), 'GET', `/api/admin/payments/${card.id}/provider`)).status).toBe(403);
  });

  it('compares the provider’s payouts with our withdrawals: one paid while ours is sending (applied), one cancelled after ours left, one of nobody’s', async () => {
    const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    /** A seller's 5 000 ₽ asked in BTC and approved: its payout made at the fake BTCPay. */
    const sent = async () => {
      const owner = await createUser(db(), { role: 'seller' });
      await t.app.services.platform.withTx(actor, ({ tx }) =>
        postTransfer(tx, {
          kind: 'adjustment',
          key: `test-fund:${owner.id}`,
          legs: [
            { account: { kind: 'external', method: 'card' }, amount: -500_000 },
            { account: { kind: 'available', userId: owner.id }, amount: 500_000 },
          ],
        }),
      );
      const asked = await call(owner, 'POST', '/api/withdrawals', { amount: 500_000, method: 'btc', destination: WALLET });
      expect((await call(admin, 'POST', `/api/admin/withdrawals/${asked.body.result._id}/approve`)).body.result.status).toBe('sending');
      const id = asked.body.result._id as string;
      for (let i = 0; i < 100 && !(await withdrawalOf(id)).payoutRef; i++) await new Promise((r) => setTimeout(r, 50));
      return withdrawalOf(id);
    };
    const withdrawalOf = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
    const hook = btc.webhookUrl;
    btc.webhookUrl = undefined; // BTCPay's news is lost on the way
    const gone = await sent();
    await btc.completePayout(gone.payoutRef!).catch(() => {});
    await service().pollPayouts(); // ours: approved, the money left the ledger
    await btc.cancelPayout(gone.payoutRef!).catch(() => {}); // …and BTCPay then cancels it
    const lagging = await sent();
    await btc.completePayout(lagging.payoutRef!).catch(() => {}); // paid, and the poll has not run since
    const stranger = await (service().providers.payoutsByName('btcpay')!).createPayout({ id: randomUUID(), method: 'btc', destination: WALLET, currency: 'BTC', amount: 1_000 });
    btc.webhookUrl = hook;

    const found = kinds(await reconcile()).filter((k) => k.includes(':payout_'));
    expect(found).toEqual(
      [`btcpay:payout_not_at_provider:${gone.payoutRef}`, `btcpay:payout_unknown:${stranger.payoutId}`, `btcpay:payout_unsettled:${lagging.payoutRef}`].sort(),
    );
    const [row] = await rowsOf('payout_unsettled', lagging.payoutRef!);
    expect(DIFFERENCE_TEXTS.payout_unsettled.serious).toBe(false);
    const applied = await call(admin, 'POST', `/api/admin/payment-differences/${row!.id}/apply`);
    expect(applied.status).toBe(200);
    expect((await withdrawalOf(lagging.id)).status).toBe('approved');
    expect((await rowsOf('payout_unsettled', lagging.payoutRef!))[0]!.resolvedAt).not.toBeNull();
    // The serious ones cannot be applied: only resolved with a note.
    const [serious] = await rowsOf('payout_not_at_provider', gone.payoutRef!);
    expect((await call(admin, 'POST', `/api/admin/payment-differences/${serious!.id}/apply`)).status).toBe(409);
  });
});
