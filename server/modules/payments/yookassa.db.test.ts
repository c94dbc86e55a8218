import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { checkLedger } from '../ledger/index.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { orders } from '../orders/schema.ts';
import type { UserRow } from '../users/schema.ts';
import { payments, webhookEvents } from './schema.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import { fakeProvidersEnv } from '../../test/payment-fakes.ts';
import type { YookassaProvider } from './providers/yookassa/provider.ts';
import { providerPayment } from './commands/pay-provider.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';

// Card payments through ЮKassa's safe deal (issue 27, ADR 048), against a local ЮKassa that speaks its API:
// the deal and the payment made under our keys, the notification read only from ЮKassa's networks and only as
// far as the API confirms it, the poll of a payment whose notification never came, and a provider that fails.

let t: Awaited<ReturnType<typeof createTestApp>>;
let fake: FakeYookassa;
let seller: UserRow;
const actor = systemActor('test');
let n = 0;

beforeAll(async () => {
  fake = await startFakeYookassa();
  t = await createTestApp({ ...fakeProvidersEnv({ yookassa: fake }), PUBLIC_URL: 'https://podryad.example' });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
  // Short waits, so that a call ЮKassa never answers fails in a test's time.
  Object.assign(yookassa().client.options, { timeoutMs: 400, backoffMs: 20 });
  seller = await createUser(t.database.db, { role: 'seller' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;
const yookassa = () => t.app.services.payments.providers.byName('yookassa') as YookassaProvider;

async function openOrder(buyer: UserRow, price = 150_000) {
  await t.app.services.settings.all();
  const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
    t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price, days: 3, revisions: 2 }),
  );
  return order;
}

async function payByCard(user: UserRow, orderId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/pay',
    headers: { authorization: `Bearer ${await t.app.services.tokens.sign(user)}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    payload: JSON.stringify({ order_id: orderId, method: 'card' }),
  });
  return { status: res.statusCode, body: res.json() };
}

async function started(price = 150_000) {
  const buyer = await createUser(db());
  const order = await openOrder(buyer, price);
  const res = await payByCard(buyer, order.id);
  expect(res.status).toBe(200);
  const [payment] = await db().select().from(payments).where(eq(payments.id, res.body.result.payment_id));
  return { buyer, order, payment: payment!, redirect: res.body.result.redirect_url as string };
}

const orderStatus = async (id: string) => (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;
const paymentOf = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const transfersOf = async (key: string) => (await db().select({ c: count() }).from(ledgerTransfers).where(eq(ledgerTransfers.key, key)))[0]!.c;
const dealsAt = (paymentId: string) => [...fake.deals.values()].filter((d) => d.metadata.payment_id === paymentId);
const paymentsAt = (paymentId: string) => [...fake.payments.values()].filter((p) => p.metadata?.payment_id === paymentId);
const keysOf = (path: string, paymentId: string) => fake.requests.filter((r) => r.path === path && r.key?.endsWith(paymentId)).map((r) => r.key);

/** The poll, as its recurring job runs it, after a webhook's minute of grace. */
async function poll() {
  const service = t.app.services.payments;
  const clock = service.clock;
  service.clock = { now: () => new Date(Date.now() + 2 * 60_000) };
  try {
    return await service.pollProviders();
  } finally {
    service.clock = clock;
  }
}

describe('a card payment through ЮKassa', () => {
  it('is a payment inside a safe deal of its own: the whole price, the seller’s share as the deal’s payout, our id as the keys', async () => {
    const { order, payment, redirect } = await started(150_000);
    expect(redirect).toBe(`${fake.url}/checkout/${payment.providerRef}`);
    const [deal] = dealsAt(payment.id);
    expect(deal).toMatchObject({ type: 'safe_deal', fee_moment: 'deal_closed', status: 'opened' });
    expect(payment).toMatchObject({ provider: 'yookassa', status: 'pending', providerDealRef: deal!.id });
    const at = fake.payments.get(payment.providerRef!)!;
    expect(at.amount).toEqual({ value: '1500.00', currency: 'RUB' });
    // The seller's share: the price less the platform's commission of this order.
    const share = order.price - Math.round((order.price * order.commissionBp) / 10_000);
    expect(at.deal).toMatchObject({ id: deal!.id, settlements: [{ type: 'payout', amount: { value: (share / 100).toFixed(2), currency: 'RUB' } }] });
    expect(at.return_url).toBe(`https://podryad.example/payments/${order.id}?payment=${payment.id}`);
    expect(at.description).toBe(`Заказ №${order.number}: ${order.title}`);
    expect(keysOf('/v3/deals', payment.id)).toEqual([`deal-${payment.id}`]);
    expect(keysOf('/v3/payments', payment.id)).toEqual([`payment-${payment.id}`]);
  });

  it('is paid by the notification that comes before the customer returns; the same notification three times pays once', async () => {
    const { order, payment } = await started();
    await fake.pay(payment.providerRef!); // ЮKassa notifies at once, from 127.0.0.1 here
    expect(await orderStatus(order.id)).toBe('in_progress');
    expect((await paymentOf(payment.id)).status).toBe('succeeded');
    for (let i = 0; i < 3; i++) expect(await fake.notify(payment.providerRef!)).toBe(200);
    expect(await transfersOf(`payment:${payment.id}`)).toBe(1);
    expect(await transfersOf(`escrow:${order.id}`)).toBe(1);
    const events = await db().select().from(webhookEvents).where(eq(webhookEvents.eventId, `${payment.providerRef}:succeeded`));
    expect(events).toHaveLength(1);
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('acts on what the API says, not on the body: a forged «succeeded» from an allowed address changes nothing', async () => {
    const { order, payment } = await started();
    const forged = { ...fake.payments.get(payment.providerRef!)!, status: 'succeeded', paid: true };
    expect(await fake.sendRaw({ type: 'notification', event: 'payment.succeeded', object: forged })).toBe(200);
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect((await paymentOf(payment.id)).status).toBe('pending');
    expect(await transfersOf(`payment:${payment.id}`)).toBe(0);
  });

  it('refuses a notification from outside ЮKassa’s networks, and ignores one of a payment that is not ours', async () => {
    const { order, payment } = await started();
    await fake.pay(payment.providerRef!, { notify: false });
    const body = JSON.stringify({ type: 'notification', event: 'payment.succeeded', object: { id: payment.providerRef } });
    const outside = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/yookassa', remoteAddress: '203.0.113.9', headers: { 'content-type': 'application/json' }, payload: body });
    expect(outside.statusCode).toBe(400);
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect(await fake.sendRaw({ type: 'notification', event: 'payment.succeeded', object: { id: 'not-a-payment-of-ours' } })).toBe(200);
    expect(await fake.sendRaw({ type: 'notification', event: 'refund.succeeded', object: { id: 'rf-1' } })).toBe(200);
    expect(await fake.sendRaw({ nonsense: true })).toBe(400);
    // From ЮKassa's address, the same notification pays.
    expect(await fake.notify(payment.providerRef!)).toBe(200);
    expect(await orderStatus(order.id)).toBe('in_progress');
  });

  it('a notification ЮKassa cannot confirm while its API is down is answered 503 (it sends it again) and changes nothing', async () => {
    const { order, payment } = await started();
    await fake.pay(payment.providerRef!, { notify: false });
    fake.failNext(3, 'status500');
    expect(await fake.notify(payment.providerRef!)).toBe(503);
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect(await fake.notify(payment.providerRef!)).toBe(200);
    expect(await orderStatus(order.id)).toBe('in_progress');
  });

  it('a cancelled payment fails and the order still awaits payment', async () => {
    const { order, payment } = await started();
    await fake.cancel(payment.providerRef!);
    expect((await paymentOf(payment.id)).status).toBe('failed');
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect(await transfersOf(`payment:${payment.id}`)).toBe(0);
  });

  it('whose notification never comes is settled by the poll, once, however often it runs', async () => {
    const { order, payment } = await started();
    await fake.pay(payment.providerRef!, { notify: false });
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect((await poll()).settled).toBeGreaterThanOrEqual(1);
    expect(await orderStatus(order.id)).toBe('in_progress');
    await poll();
    expect(await fake.notify(payment.providerRef!)).toBe(200); // the late notification changes nothing
    expect(await transfersOf(`payment:${payment.id}`)).toBe(1);
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});

describe('when ЮKassa fails', () => {
  it('a 500 and a call never answered are retried under the same key: one deal, one payment', async () => {
    const buyer = await createUser(db());
    const order = await openOrder(buyer);
    fake.failNext(1, 'status500');
    fake.failNext(1, 'timeout');
    const res = await payByCard(buyer, order.id);
    expect(res.status).toBe(200);
    const id = res.body.result.payment_id as string;
    expect(dealsAt(id)).toHaveLength(1);
    expect(paymentsAt(id)).toHaveLength(1);
    expect(keysOf('/v3/deals', id)).toEqual([`deal-${id}`, `deal-${id}`, `deal-${id}`]);
  });

  it('a refusal (a 4xx) is not retried: the customer is told to pay another way, and the operator sees an error', async () => {
    const buyer = await createUser(db());
    const order = await openOrder(buyer);
    fake.failNext(1, 'refuse');
    const refused = await payByCard(buyer, order.id);
    expect(refused.status).toBe(502);
    expect(refused.body.message).toBe(PAYMENT_MESSAGES.providerRefused);
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
  });

  it('an answer lost on the way is asked again under the same key and gives the same payment', async () => {
    const buyer = await createUser(db());
    const order = await openOrder(buyer);
    fake.failNext(1, 'lostAnswer');
    const res = await payByCard(buyer, order.id);
    expect(res.status).toBe(200);
    expect(paymentsAt(res.body.result.payment_id)).toHaveLength(1);
    expect(dealsAt(res.body.result.payment_id)).toHaveLength(1);
  });

  it('still failing after its retries, the customer is told to try again, and the next try makes one payment', async () => {
    const buyer = await createUser(db());
    const order = await openOrder(buyer);
    fake.failNext(3, 'status500');
    const failed = await payByCard(buyer, order.id);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBe(PAYMENT_MESSAGES.providerUnavailable);
    const again = await payByCard(buyer, order.id);
    expect(again.status).toBe(200);
    expect(again.body.result.payment_id).toBe((await db().select().from(payments).where(eq(payments.orderId, order.id)))[0]!.id);
    expect(paymentsAt(again.body.result.payment_id)).toHaveLength(1);
  });

  it('a payment made at ЮKassa whose answer a crash lost is found again by the poll, and paid once', async () => {
    const { order, payment } = await started();
    // As if the process died after ЮKassa made a second order's payment and before we noted its id.
    const buyer = await createUser(db());
    const other = await openOrder(buyer);
    const [row] = await db()
      .insert(payments)
      .values({ orderId: other.id, customerId: buyer.id, method: 'card', provider: 'yookassa', amount: other.price, currency: 'RUB', currencyAmount: other.price, createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    const made = await yookassa().createPayment(providerPayment({ siteUrl: () => 'https://podryad.example' }, row!, other));
    await fake.pay(made.providerRef); // its notification names a payment we do not know yet: ignored, not recorded
    expect(await orderStatus(other.id)).toBe('awaiting_payment');
    await poll();
    expect((await paymentOf(row!.id)).providerRef).toBe(made.providerRef);
    expect(paymentsAt(row!.id)).toHaveLength(1);
    expect(await orderStatus(other.id)).toBe('in_progress');
    expect(await transfersOf(`payment:${row!.id}`)).toBe(1);
    // The first order's payment is untouched: still pending at ЮKassa.
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect((await paymentOf(payment.id)).status).toBe('pending');
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});
