import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { balanceOf, checkLedger } from '../ledger/index.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import type { UserRow } from '../users/schema.ts';
import { payments } from './schema.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import { startFakeBtcpay, type FakeBtcpay } from './providers/btcpay/fake.ts';
import { fakeProvidersEnv, holdRates } from '../../test/payment-fakes.ts';
import { paymentArrivals } from '../ledger/index.ts';
import { PAYMENT_MESSAGES, TOP_UP_LIMITS } from '#contract/payments';

// Top-ups of the balance (ADR 062): a payment with no order, made at a provider, credited to the balance once by
// its webhook (`payment:<id>`), receipted, and then spent on an order from the balance. Through the sandbox, and
// through the fakes of ЮKassa (whose safe deal takes no top-up) and BTCPay.

type App = Awaited<ReturnType<typeof createTestApp>>;
const actor = systemActor('test');
let n = 0;

function harness(app: () => App) {
  const db = () => app().database.db;
  const call = async (user: UserRow | null, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app().app.inject({
      method,
      url,
      headers: {
        ...(user ? { authorization: `Bearer ${await app().app.services.tokens.sign(user)}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const topUp = (user: UserRow, body: unknown, key: string = randomUUID()) => call(user, 'POST', '/api/payments/top-up', body, { 'idempotency-key': key });
  const available = (user: UserRow) => balanceOf(db(), { kind: 'available', userId: user.id });
  const paymentOf = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
  const arrivals = async (id: string) => (await db().select().from(ledgerTransfers).where(like(ledgerTransfers.key, `payment:${id}%`))).length;
  const clean = async () => expect((await checkLedger(db())).problems).toEqual([]);
  return { db, call, topUp, available, paymentOf, arrivals, clean };
}

async function until(check: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a top-up through the sandbox', () => {
  let t: App;
  let seller: UserRow;
  const sent: { body: string; headers: Record<string, string> }[] = [];
  const mailed = new Map<string, { subject: string; text: string }[]>();
  const h = harness(() => t);
  const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
  const lettersTo = (user: UserRow) => (mailed.get(user.email) ?? []).map((l) => ({ subject: plain(l.subject), text: plain(l.text) }));

  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_WEBHOOK_SECRET: 'a-webhook-secret-for-the-tests-0123456789' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.services.payments.webhookTransport = async (path, body, headers) => {
      sent.push({ body, headers });
      const res = await fetch(`${base}${path}`, { method: 'POST', body, headers });
      await res.arrayBuffer();
      return res.status;
    };
    const mailer = t.app.services.mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = async (to, letter) => {
      mailed.set(to, [...(mailed.get(to) ?? []), { subject: letter.subject, text: letter.text }]);
      return send(to, letter);
    };
    seller = await createUser(t.database.db, { role: 'seller' });
  });
  afterAll(() => t.close());

  it('offers the sandbox methods on the finance page, the card among them (no safe deal here)', async () => {
    const res = await h.call(await createUser(h.db()), 'GET', '/api/finance/balance');
    expect(res.status).toBe(200);
    const methods = res.body.result.top_up as { method: string; min: number; max: number }[];
    expect(methods.map((m) => m.method)).toContain('card');
    // The card's range: the top-up's own narrowed by the card's (500 ₽ and up by the default settings).
    expect(methods.find((m) => m.method === 'card')).toMatchObject({ min: 50_000, max: TOP_UP_LIMITS.max });
  });

  it('credits the balance once on the signed webhook, replayed or not, sends a receipt, and then pays an order from it', async () => {
    const buyer = await createUser(h.db());
    const key = randomUUID();
    const started = await h.topUp(buyer, { amount: 123_456, method: 'card' }, key);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { payment_id, redirect_url, status } = started.body.result;
    expect(status).toBe('pending');
    expect(redirect_url).toBe(`/sandbox-pay/${payment_id}`);
    // The same key again: the first answer, not a second payment.
    const again = await h.topUp(buyer, { amount: 123_456, method: 'card' }, key);
    expect(again.body.result.payment_id).toBe(payment_id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await h.db().select().from(payments).where(eq(payments.customerId, buyer.id))).toHaveLength(1);
    const row = await h.paymentOf(payment_id);
    expect(row).toMatchObject({ orderId: null, amount: 123_456, currencyAmount: 123_456, provider: 'sandbox', status: 'pending' });

    // The sandbox's page says what it pays and sends the customer back to the finance page.
    const page = await h.call(null, 'GET', `/api/payments/sandbox/${payment_id}`);
    expect(page.body.result).toMatchObject({ order: null, currency_amount: 123_456, return_url: `/profile/finance?top_up=${payment_id}` });
    expect((await h.call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`)).status).toBe(200);
    await until(async () => (await h.paymentOf(payment_id)).status === 'succeeded');
    expect(await h.available(buyer)).toBe(123_456);
    expect(await h.arrivals(payment_id)).toBe(1);

    // The very same webhook again, and the reconciliation's count of what arrived: once.
    const delivered = sent.at(-1)!;
    const replay = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: delivered.headers, payload: delivered.body });
    expect(replay.json().result).toEqual({ received: true, duplicate: true });
    expect(await h.available(buyer)).toBe(123_456);
    expect((await paymentArrivals(h.db(), [{ id: payment_id, orderId: null }])).get(payment_id)).toBe(123_456);

    // The receipt: the amount, the method, what it paid.
    await until(async () => lettersTo(buyer).length === 1);
    const [letter] = lettersTo(buyer);
    expect(letter!.subject).toBe('Пополнение баланса на 1 234,56 руб. — Подряд');
    for (const part of ['Назначение: Пополнение баланса', 'Оплачено: 1 234,56 руб.', 'Способ оплаты: Банковская карта', '/profile/finance']) expect(letter!.text).toContain(part);

    // The finance page lists it among the top-ups, and its ledger line names no order.
    const mine = await h.call(buyer, 'GET', '/api/payments/my?purpose=top_up');
    expect(mine.body.result).toEqual([expect.objectContaining({ _id: payment_id, order: null, status: 'succeeded', amount: 123_456 })]);
    const entries = await h.call(buyer, 'GET', '/api/finance/entries');
    expect(entries.body.result[0]).toMatchObject({ kind: 'payment', amount: 123_456, balance_after: 123_456, order: null, direction: 'in' });

    // Spent on an order from the balance: into escrow, the rest stays, and that payment is receipted too.
    await t.app.services.settings.all();
    const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
      t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price: 100_000, days: 3, revisions: 2 }),
    );
    const paid = await h.call(buyer, 'POST', '/api/payments/pay', { order_id: order.id, method: 'balance' }, { 'idempotency-key': randomUUID() });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await h.available(buyer)).toBe(23_456);
    expect(await balanceOf(h.db(), { kind: 'escrow', orderId: order.id })).toBe(100_000);
    await until(async () => lettersTo(buyer).length === 2);
    expect(lettersTo(buyer)[1]!.subject).toMatch(new RegExp(`^Оплата заказа №${order.number} получена`));
    expect(lettersTo(buyer)[1]!.text).toContain('Способ оплаты: Баланс');
    expect((await h.call(buyer, 'GET', '/api/payments/my?purpose=order')).body.result.map((p: { _id: string }) => p._id)).toEqual([paid.body.result.payment_id]);
    await h.clean();
  });

  it('a declined top-up credits nothing and sends no receipt', async () => {
    const buyer = await createUser(h.db());
    const { payment_id } = (await h.topUp(buyer, { amount: 60_000, method: 'card' })).body.result;
    await h.call(null, 'POST', `/api/payments/sandbox/${payment_id}/decline`);
    await until(async () => (await h.paymentOf(payment_id)).status === 'failed');
    expect(await h.available(buyer)).toBe(0);
    expect(await h.arrivals(payment_id)).toBe(0);
    expect(lettersTo(buyer)).toEqual([]);
  });

  it('refuses an amount outside the range, a balance method, a guest, and a request without its key, in Russian', async () => {
    const buyer = await createUser(h.db());
    const below = await h.topUp(buyer, { amount: 49_999, method: 'card' });
    expect(below.status).toBe(400);
    expect(below.body.message).toBe('Этим способом можно пополнить баланс от 500 руб.'.replace(/ (?=руб)/, '\u00a0'));
    const above = await h.topUp(buyer, { amount: TOP_UP_LIMITS.max + 1, method: 'card' });
    expect(above.status).toBe(400);
    expect(above.body.message).toMatch(/^Этим способом можно пополнить баланс до 300/);
    for (const body of [{ amount: 0, method: 'card' }, { amount: 1.5, method: 'card' }, { amount: 100_000, method: 'balance' }, { amount: '100000', method: 'card' }]) {
      const res = await h.topUp(buyer, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await h.call(buyer, 'POST', '/api/payments/top-up', { amount: 100_000, method: 'card' })).body.message).toBe(PAYMENT_MESSAGES.idempotencyKeyRequired);
    expect((await h.call(null, 'POST', '/api/payments/top-up', { amount: 100_000, method: 'card' }, { 'idempotency-key': randomUUID() })).status).toBe(401);
    expect(await h.db().select().from(payments).where(eq(payments.customerId, buyer.id))).toEqual([]);
  });
});

describe('a top-up through ЮKassa and BTCPay', () => {
  let t: App;
  let yookassa: FakeYookassa;
  let btcpay: FakeBtcpay;
  const h = harness(() => t);

  beforeAll(async () => {
    yookassa = await startFakeYookassa();
    btcpay = await startFakeBtcpay();
    t = await createTestApp({ ...fakeProvidersEnv({ yookassa, btcpay }), PAYMENTS_SANDBOX: 'false', PUBLIC_URL: 'https://podryad.example' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    yookassa.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
    btcpay.webhookUrl = `${base}/api/payments/webhooks/btcpay`;
    await holdRates(h.db(), t.app); // 1 BTC = 9 000 000 ₽, 1 USDT = 90 ₽
  });
  afterAll(async () => {
    await t.close();
    await yookassa.close();
    await btcpay.close();
  });

  it('does not offer the card under the safe deal, and refuses it with a 409 that says why; nothing is made at ЮKassa', async () => {
    const buyer = await createUser(h.db());
    const offered = (await h.call(buyer, 'GET', '/api/finance/balance')).body.result.top_up as { method: string }[];
    expect(offered.map((m) => m.method).sort()).toEqual(['btc', 'usdt']);
    const before = yookassa.requests.length;
    const card = await h.topUp(buyer, { amount: 100_000, method: 'card' });
    expect(card.status).toBe(409);
    expect(card.body.message).toBe(PAYMENT_MESSAGES.topUpCardInDeal);
    expect(yookassa.requests.length).toBe(before);
    expect(await h.db().select().from(payments).where(eq(payments.customerId, buyer.id))).toEqual([]);
  });

  it('USDT: an invoice of the amount and the fee at the rate, paid, credited once however often BTCPay calls back', async () => {
    const buyer = await createUser(h.db());
    const started = await h.topUp(buyer, { amount: 200_000, method: 'usdt' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const payment = await h.paymentOf(started.body.result.payment_id);
    // 2 000 ₽ and 1 % at 90 ₽ per USDT: 2 020 / 90 = 22.444… → 22.45 USDT.
    expect(payment).toMatchObject({ orderId: null, currency: 'USDT', amount: 200_000, fee: 2_000, currencyAmount: 2_245, provider: 'btcpay' });
    const invoice = btcpay.store.invoices.get(payment.providerRef!)!;
    expect(invoice).toMatchObject({ currency: 'USDT', amount: 2_245, metadata: { orderId: payment.id } });
    expect(started.body.result.redirect_url).toContain(btcpay.url);
    await btcpay.pay(invoice.id, payment.currencyAmount, { confirmed: true });
    await until(async () => (await h.paymentOf(payment.id)).status === 'succeeded');
    expect(await h.available(buyer)).toBe(200_000);
    for (const delivery of [...btcpay.deliveries]) await btcpay.redeliver(delivery.deliveryId);
    expect(await h.arrivals(payment.id)).toBe(1);
    expect(await h.available(buyer)).toBe(200_000);
    await h.clean();
  });

  it('BTC underpaid: what arrived is credited, no more', async () => {
    const buyer = await createUser(h.db());
    const started = await h.topUp(buyer, { amount: 500_000, method: 'btc' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const payment = await h.paymentOf(started.body.result.payment_id);
    const half = Math.floor(payment.currencyAmount / 2);
    await btcpay.pay(payment.providerRef!, half, { confirmed: true });
    await btcpay.expire(payment.providerRef!);
    await until(async () => (await h.paymentOf(payment.id)).status === 'credited');
    const credited = await h.available(buyer);
    expect(credited).toBe(Math.floor((half * 500_000) / payment.currencyAmount));
    expect((await h.paymentOf(payment.id)).failureReason).toBe(PAYMENT_MESSAGES.underpaid);
    await h.clean();
  });
});
