import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { balanceOf, checkLedger, postTransfer } from '../ledger/index.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { orders } from '../orders/schema.ts';
import type { UserRow } from '../users/schema.ts';
import { payments, withdrawals } from './schema.ts';
import { startFakeBtcpay, type FakeBtcpay } from './providers/btcpay/fake.ts';
import { fakeProvidersEnv, holdRates } from '../../test/payment-fakes.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';

// BTC and USDT through BTCPay Server (issue 27, ADR 048), against a local BTCPay that speaks Greenfield: an invoice
// per quote, webhooks checked by BTCPay-Sig and re-read from the invoice, and every way an invoice can end —
// paid, underpaid, overpaid, paid after its expiry, a partial payment followed by a late one — with nothing lost.

let t: Awaited<ReturnType<typeof createTestApp>>;
let fake: FakeBtcpay;
let seller: UserRow;
const actor = systemActor('test');
let n = 0;

beforeAll(async () => {
  fake = await startFakeBtcpay();
  t = await createTestApp(fakeProvidersEnv({ btcpay: fake }));
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `${base}/api/payments/webhooks/btcpay`;
  seller = await createUser(t.database.db, { role: 'seller' });
  await holdRates(db(), t.app); // 1 BTC = 9 000 000 ₽, 1 USDT = 90 ₽
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;

async function call(user: UserRow, url: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${await t.app.services.tokens.sign(user)}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() };
}

/** A customer's order of 5 000 ₽ (crypto takes orders from 3 000 ₽), quoted and sent to BTCPay's invoice. */
async function invoiced(method: 'btc' | 'usdt' = 'btc') {
  const buyer = await createUser(db());
  await t.app.services.settings.all();
  const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
    t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price: 500_000, days: 3, revisions: 2 }),
  );
  const quote = await call(buyer, '/api/payments/quote', { order_id: order.id, method });
  expect(quote.status).toBe(200);
  const paid = await call(buyer, '/api/payments/pay', { order_id: order.id, method, quote_id: quote.body.result._id });
  expect(paid.status).toBe(200);
  const [payment] = await db().select().from(payments).where(eq(payments.id, paid.body.result.payment_id));
  return { buyer, order, payment: payment!, quoted: quote.body.result.currency_amount as number, redirect: paid.body.result.redirect_url as string };
}

const orderStatus = async (id: string) => (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;
const paymentOf = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const available = (user: UserRow) => balanceOf(db(), { kind: 'available', userId: user.id });
const arrivals = async (paymentId: string) => (await db().select().from(ledgerTransfers).where(like(ledgerTransfers.key, `payment:${paymentId}%`))).length;
/** Kopecks of so many satoshi (cents) at the payment's own price: 5 000 ₽ for the whole invoice. */
const rubles = (due: number, minor: number) => Math.floor((minor * 500_000) / due);
const clean = async () => expect((await checkLedger(db())).problems).toEqual([]);

describe('a crypto payment through BTCPay Server', () => {
  it('is an invoice of the quoted amount that expires with the quote; paid and confirmed, it pays the order once', async () => {
    const { buyer, order, payment, quoted, redirect } = await invoiced('btc');
    const invoice = fake.store.invoices.get(payment.providerRef!)!;
    // The price and the method's fee at 9 000 000 ₽ per BTC, in satoshi, as quoted.
    expect(invoice).toMatchObject({ currency: 'BTC', amount: payment.currencyAmount, metadata: { orderId: payment.id } });
    expect(payment.currencyAmount).toBe(quoted);
    expect(quoted).toBeGreaterThan(55_555); // 5 000 ₽ alone
    expect(invoice.expirationTime - invoice.createdTime).toBe(15 * 60);
    expect(redirect).toContain(fake.url);
    await fake.pay(invoice.id, payment.currencyAmount, { confirmed: true });
    expect(await orderStatus(order.id)).toBe('in_progress');
    expect((await paymentOf(payment.id)).status).toBe('succeeded');
    expect(await available(buyer)).toBe(0);
    // Every delivery again: nothing more.
    for (const delivery of [...fake.deliveries]) await fake.redeliver(delivery.deliveryId);
    expect(await arrivals(payment.id)).toBe(1);
    await clean();
  });

  it('USDT works the same way, in cents', async () => {
    const { order, payment, quoted } = await invoiced('usdt');
    expect(fake.store.invoices.get(payment.providerRef!)).toMatchObject({ currency: 'USDT', amount: quoted });
    expect(quoted).toBeGreaterThan(5_555); // 5 000 ₽ alone, in cents
    await fake.pay(payment.providerRef!, quoted, { confirmed: true });
    expect(await orderStatus(order.id)).toBe('in_progress');
  });

  it('underpaid and expired: what arrived is on the customer’s balance, the order still awaits payment', async () => {
    const { buyer, order, payment, quoted } = await invoiced('btc');
    const half = Math.floor(quoted / 2);
    await fake.pay(payment.providerRef!, half, { confirmed: true });
    await fake.expire(payment.providerRef!);
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect(await paymentOf(payment.id)).toMatchObject({ status: 'credited', failureReason: PAYMENT_MESSAGES.underpaid, receivedAmount: half });
    expect(await available(buyer)).toBe(rubles(quoted, half)); // about half of the 5 000 ₽ price
    expect(rubles(quoted, half)).toBeGreaterThan(249_000);
    await clean();
  });

  it('overpaid: the order is paid and the surplus is on the balance', async () => {
    const { buyer, order, payment, quoted } = await invoiced('btc');
    const more = Math.floor(quoted / 10);
    await fake.pay(payment.providerRef!, quoted + more, { confirmed: true }); // 10 % more
    expect(await orderStatus(order.id)).toBe('in_progress');
    expect(await available(buyer)).toBe(rubles(quoted, quoted + more) - 500_000);
    expect(await available(buyer)).toBeGreaterThan(49_000);
    expect(await arrivals(payment.id)).toBe(2);
    await clean();
  });

  it('paid after its expiry: credited to the balance, and a partial payment then a late one are both kept', async () => {
    const late = await invoiced('btc');
    await fake.expire(late.payment.providerRef!);
    expect((await paymentOf(late.payment.id)).status).toBe('failed');
    await fake.pay(late.payment.providerRef!, late.quoted, { confirmed: true, late: true });
    expect(await paymentOf(late.payment.id)).toMatchObject({ status: 'credited', failureReason: PAYMENT_MESSAGES.paidLate });
    expect(await available(late.buyer)).toBe(500_000);
    expect(await orderStatus(late.order.id)).toBe('awaiting_payment');

    const both = await invoiced('btc');
    const quarter = Math.floor(both.quoted / 4);
    await fake.pay(both.payment.providerRef!, quarter, { confirmed: true });
    await fake.expire(both.payment.providerRef!);
    expect(await available(both.buyer)).toBe(rubles(both.quoted, quarter));
    await fake.pay(both.payment.providerRef!, both.quoted - quarter, { confirmed: true });
    // The whole invoice in two payments: the whole price, on the balance, kopeck for kopeck.
    expect(await available(both.buyer)).toBe(500_000);
    expect((await paymentOf(both.payment.id)).receivedAmount).toBe(both.quoted);
    await clean();
  });

  it('refuses a webhook with a wrong signature, and a signed body that lies is checked against the invoice', async () => {
    const { order, payment } = await invoiced('btc');
    const body = { deliveryId: 'x1', webhookId: fake.webhookId, originalDeliveryId: 'x1', isRedelivery: false, type: 'InvoiceSettled', timestamp: 1, storeId: fake.store.id, invoiceId: payment.providerRef };
    expect((await fake.sendForged(body)).status).toBe(400);
    expect((await fake.sendSigned(body)).status).toBe(200); // BTCPay says the invoice is New: nothing happens
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
    expect(await arrivals(payment.id)).toBe(0);
  });

  it('a quote the customer never went on to pay is not made an invoice by the poll', async () => {
    const buyer = await createUser(db());
    await t.app.services.settings.all();
    const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
      t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price: 500_000, days: 3, revisions: 2 }),
    );
    const quote = await call(buyer, '/api/payments/quote', { order_id: order.id, method: 'btc' });
    expect(quote.status).toBe(200);
    const invoices = fake.store.invoices.size;
    const service = t.app.services.payments;
    const clock = service.clock;
    service.clock = { now: () => new Date(Date.now() + 2 * 60_000) };
    try {
      await service.pollProviders();
    } finally {
      service.clock = clock;
    }
    expect(fake.store.invoices.size).toBe(invoices);
    expect((await paymentOf(quote.body.result._id)).providerRef).toBeNull();
  });

  it('an invoice marked invalid fails the payment', async () => {
    const { order, payment } = await invoiced('btc');
    await fake.invalidate(payment.providerRef!);
    expect((await paymentOf(payment.id)).status).toBe('failed');
    expect(await orderStatus(order.id)).toBe('awaiting_payment');
  });
});

describe('a crypto withdrawal through BTCPay Server', () => {
  const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

  /** A seller with 5 000 ₽ who asks for all of it in BTC, approved by an admin. */
  async function fundAndAsk(user: UserRow) {
    await t.app.services.platform.withTx(actor, ({ tx }) =>
      postTransfer(tx, {
        kind: 'adjustment',
        key: `test-fund:${user.id}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -500_000 },
          { account: { kind: 'available', userId: user.id }, amount: 500_000 },
        ],
      }),
    );
    const asked = await call(user, '/api/withdrawals', { amount: 500_000, method: 'btc', destination: WALLET });
    expect(asked.status).toBe(200);
    return asked;
  }

  async function approved() {
    const user = await createUser(db(), { role: 'seller' });
    const asked = await fundAndAsk(user);
    const admin = await createUser(db(), { role: 'admin' });
    const decided = await call(admin, `/api/admin/withdrawals/${asked.body.result._id}/approve`, {});
    expect(decided.status).toBe(200);
    expect(decided.body.result.status).toBe('sending');
    const id = asked.body.result._id as string;
    await until(async () => (await withdrawalOf(id)).payoutRef !== null);
    return { user, id, payout: fake.store.payouts.get((await withdrawalOf(id)).payoutRef!)! };
  }
  const withdrawalOf = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
  const held = (user: UserRow) => balanceOf(db(), { kind: 'withdrawal_hold', userId: user.id });

  it('is sent as a payout of the coin at the rate of its approval; the money leaves when BTCPay says it is paid', async () => {
    const { user, id, payout } = await approved();
    // 5 000 ₽ at 9 000 000 ₽ per BTC: 0.00055555 BTC, rounded down.
    expect(payout).toMatchObject({ destination: WALLET, currency: 'BTC', amount: '0.00055555', metadata: { withdrawalId: id } });
    expect(await held(user)).toBe(500_000); // still held while it is on its way
    await fake.completePayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'approved');
    expect(await held(user)).toBe(0);
    expect(await available(user)).toBe(0);
    await clean();
  });

  it('one BTCPay could not take when approved is sent again by the poll, once', async () => {
    fake.failNext(30, 'status500', { method: 'POST', path: /\/payouts$/ });
    const user = await createUser(db(), { role: 'seller' });
    await fundAndAsk(user);
    const [w] = await db().select().from(withdrawals).where(eq(withdrawals.userId, user.id));
    const admin = await createUser(db(), { role: 'admin' });
    expect((await call(admin, `/api/admin/withdrawals/${w!.id}/approve`, {})).body.result.status).toBe('sending');
    fake.recover();
    // Ten minutes later the poll sends it: one payout at BTCPay, the money still held until it is paid.
    const service = t.app.services.payments;
    const clock = service.clock;
    service.clock = { now: () => new Date(Date.now() + 11 * 60_000) };
    try {
      await service.pollPayouts();
      await service.pollPayouts();
    } finally {
      service.clock = clock;
    }
    const sent = [...fake.store.payouts.values()].filter((p) => p.metadata.withdrawalId === w!.id);
    expect(sent).toHaveLength(1);
    expect((await withdrawalOf(w!.id)).payoutRef).toBe(sent[0]!.id);
    expect(await held(user)).toBe(500_000);
    // Paid out: the address is free for the next payout (BTCPay refuses a second pending one to it).
    await fake.completePayout(sent[0]!.id);
    await until(async () => (await withdrawalOf(w!.id)).status === 'approved');
  });

  it('cancelled by BTCPay, the money returns to the balance with the reason; a lost webhook is caught by the poll', async () => {
    const { user, id, payout } = await approved();
    const url = fake.webhookUrl;
    fake.webhookUrl = undefined; // the webhook is lost
    const lost = await fake.cancelPayout(payout.id);
    fake.webhookUrl = url;
    expect(lost.status, 'the webhook was never posted').toBeNull();
    // The poll asks BTCPay and settles it (the app's own recurring run may come first; a slow answer waits a round).
    await until(async () => {
      await t.app.services.payments.pollPayouts();
      return (await withdrawalOf(id)).status !== 'sending';
    });
    expect(await withdrawalOf(id)).toMatchObject({ status: 'returned', rejectReason: PAYMENT_MESSAGES.payoutReturned });
    expect(await available(user)).toBe(500_000);
    expect(await held(user)).toBe(0);
    await clean();
  });
});

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
