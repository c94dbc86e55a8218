import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person, signedInPerson } from '../../test/app.ts';
import { call } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { balanceOf, balancesOf } from '../ledger/index.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { messages } from '../chat/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { splitPrice } from '#contract/money';
import type { OrderDetail } from '#contract/orders';
import { paymentDifferences, paymentRefunds, payments } from './schema.ts';
import { useYookassaApp } from './testing-yookassa.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';

// Refunds inside ЮKassa's safe deal (ADR 051), against the local ЮKassa: an order paid by card and cancelled, or
// decided by a dispute, is refunded to the card inside its deal — one refund at ЮKassa under our key, the kopecks
// out of escrow to external:card, the customer's balance untouched — whatever fails on the way.

const PRICE = 100_000;
const y = useYookassaApp();
const { db, yookassa, post, runJobs, expectLedgerClean } = y;
const escrowOf = (orderId: string) => balanceOf(db(), { kind: 'escrow', orderId });
const available = async (p: Person) => (await balancesOf(db(), p.user.id)).available;
const refundsOf = async (orderId: string) => db().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId));
const transfers = async (key: string) => (await db().select({ c: count() }).from(ledgerTransfers).where(eq(ledgerTransfers.key, key)))[0]!.c;
const atFake = (paymentRef: string) => [...y.fake.refunds.refunds.values()].filter((r) => r.payment_id === paymentRef);
const refundKeys = () => y.fake.requests.filter((r) => r.path === '/v3/refunds' && r.method === 'POST').map((r) => r.key);

/** An order of a fresh seller's service, paid by a fresh customer's card through ЮKassa. */
async function paidByCard() {
  const paid = await y.paidByCard(PRICE);
  expect(await escrowOf(paid.order._id)).toBe(PRICE);
  expect(paid.deal.balance.value).toBe('1000.00');
  return paid;
}

/** A card-paid order its seller cancels; `before` readies ЮKassa's next answers to the refund. */
async function cancelled(before: () => void = () => {}) {
  const paid = await paidByCard();
  before();
  const res = await post(paid.seller, `/api/orders/${paid.order._id}/cancel`, { reason: 'Не успеваю' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return paid;
}

describe('a card-paid order cancelled', () => {
  it('is refunded to the card inside its deal: one refund at ЮKassa, escrow → external:card, the balance untouched', async () => {
    const { customer, order, payment, deal, sellerShare } = await cancelled();
    // Decided: recorded, the kopecks still in escrow (as they are still in the deal) until ЮKassa answers.
    const [pending] = await refundsOf(order._id);
    expect(pending).toMatchObject({ status: 'pending', amount: PRICE, paymentId: payment.id, key: `settle:${order._id}` });
    expect(await escrowOf(order._id)).toBe(PRICE);
    expect(await transfers(`settle:${order._id}`)).toBe(0);
    await expectLedgerClean();
    const texts = (await db().select({ m: messages.message }).from(messages)).map((r) => r.m);
    expect(texts.some((m) => m.includes('Деньги возвращаются на карту заказчика.'))).toBe(true);

    const cardBefore = await balanceOf(db(), { kind: 'external', method: 'card' });
    await runJobs();
    const at = atFake(payment.providerRef!);
    expect(at).toHaveLength(1);
    // The whole payment back; the seller's whole payout in the deal gone with it.
    expect(at[0]).toMatchObject({ status: 'succeeded', amount: { value: '1000.00', currency: 'RUB' }, deal: { id: deal.id, refund_settlements: [{ type: 'payout', amount: { value: (sellerShare / 100).toFixed(2) } }] } });
    expect(at[0]!.metadata).toEqual({ refund_id: pending!.id });
    expect(refundKeys().filter((k) => k === `refund-${pending!.id}`)).toHaveLength(1);
    expect(deal.balance.value).toBe('0.00');
    const [done] = await refundsOf(order._id);
    expect(done).toMatchObject({ status: 'succeeded', providerRef: at[0]!.id });
    expect(await escrowOf(order._id)).toBe(0);
    expect(await balanceOf(db(), { kind: 'external', method: 'card' })).toBe(cardBefore + PRICE);
    expect(await available(customer)).toBe(0);
    expect(await transfers(`refund:${pending!.id}`)).toBe(1);
    await expectLedgerClean();
    // The customer's list of payments says where the money went.
    const mine = await call<{ _id: string; refund: unknown }[]>(y.t.app, 'GET', '/api/payments/my', { token: customer.token });
    expect(mine.body.result.find((p) => p._id === payment.id)!.refund).toEqual({ amount: PRICE, status: 'succeeded' });
  });

  it('is made once when ЮKassa answers 500 at first: the retry carries the same key', async () => {
    const { customer, order, payment } = await cancelled(() => y.fake.failNext(3, 'status500')); // every attempt of the job's first call
    await runJobs();
    const [refund] = await refundsOf(order._id);
    expect(refund).toMatchObject({ status: 'pending', providerRef: null });
    expect(atFake(payment.providerRef!)).toHaveLength(0);
    await y.t.app.services.payments.sendRefund(refund!.id); // the outbox's retry
    await y.t.app.services.payments.sendRefund(refund!.id); // and a late duplicate of it
    expect(atFake(payment.providerRef!)).toHaveLength(1);
    expect(new Set(refundKeys().filter((k) => k === `refund-${refund!.id}`)).size).toBe(1);
    expect(refundKeys().filter((k) => k === `refund-${refund!.id}`).length).toBeGreaterThanOrEqual(4);
    expect((await refundsOf(order._id))[0]!.status).toBe('succeeded');
    expect(await escrowOf(order._id)).toBe(0);
    expect(await available(customer)).toBe(0);
    await expectLedgerClean();
  });

  it('is not sent again once ЮKassa has forgotten its key (24 hours): reconciliation’s to see', async () => {
    const { order } = await cancelled(() => y.fake.failNext(3, 'status500'));
    await runJobs();
    const [refund] = await refundsOf(order._id);
    const asked = refundKeys().length;
    const clock = y.t.app.services.payments.clock;
    y.t.app.services.payments.clock = { now: () => new Date(Date.now() + 25 * 60 * 60_000) };
    try {
      await y.t.app.services.payments.pollRefunds();
      await y.t.app.services.payments.sendRefund(refund!.id);
    } finally {
      y.t.app.services.payments.clock = clock;
    }
    expect(refundKeys().length).toBe(asked);
    expect((await refundsOf(order._id))[0]!.status).toBe('pending');
    expect(await escrowOf(order._id)).toBe(PRICE);
    // Back in its day, it goes through (for the tests after this one).
    await y.t.app.services.payments.sendRefund(refund!.id);
    expect((await refundsOf(order._id))[0]!.status).toBe('succeeded');
  });

  it('is one refund when the process dies between ЮKassa’s answer and our commit', async () => {
    const { order, payment } = await cancelled();
    const [refund] = await refundsOf(order._id);
    // The job's call reached ЮKassa and made the refund; the process died before anything was written.
    await yookassa().refunds.refund({ id: refund!.id, paymentRef: payment.providerRef!, amount: refund!.amount, sellerReduction: refund!.sellerReduction, description: refund!.description });
    await runJobs(); // after the restart the job runs again
    expect(atFake(payment.providerRef!)).toHaveLength(1);
    expect(await transfers(`refund:${refund!.id}`)).toBe(1);
    expect(await escrowOf(order._id)).toBe(0);
    await expectLedgerClean();
  });

  it('refused by ЮKassa loses no money: the kopecks go to the customer’s balance', async () => {
    const { customer, order, payment } = await cancelled(() => y.fake.failNext(1, 'refuse'));
    await runJobs();
    const [refund] = await refundsOf(order._id);
    expect(refund).toMatchObject({ status: 'refused' });
    expect(refund!.failureReason).toContain('forbidden');
    expect(atFake(payment.providerRef!)).toHaveLength(0);
    expect(await escrowOf(order._id)).toBe(0);
    expect(await available(customer)).toBe(PRICE);
    await expectLedgerClean();
    // The customer is told where the money is.
    const told = await db().select().from(notifications).where(and(eq(notifications.userId, customer.user.id), eq(notifications.kind, 'payment.refundRefused')));
    expect(told.map((n) => [n.kind, n.text])).toEqual([['payment.refundRefused', `Возврат 1\u00a0000\u00a0руб. по заказу №${order.number} не прошёл на карту — деньги на вашем балансе`]]);
  });

  it('cancelled by the card network after a pending answer: to the balance; a forged notification changes nothing first', async () => {
    y.fake.refunds.next.push('pending');
    const { customer, order, payment } = await cancelled();
    await runJobs();
    const [refund] = await refundsOf(order._id);
    expect(refund).toMatchObject({ status: 'pending' });
    expect(refund!.providerRef).toBe(atFake(payment.providerRef!)[0]!.id);
    // A notification whose refund ЮKassa still calls pending: asked again, nothing happens.
    expect(await y.fake.sendRaw({ type: 'notification', event: 'refund.succeeded', object: { id: refund!.providerRef } })).toBe(200);
    expect((await refundsOf(order._id))[0]!.status).toBe('pending');
    expect(await escrowOf(order._id)).toBe(PRICE);
    y.fake.refunds.settle(refund!.providerRef!, 'canceled');
    expect(await y.t.app.services.payments.pollRefunds()).toBe(0); // not yet its time
    const clock = y.t.app.services.payments.clock;
    y.t.app.services.payments.clock = { now: () => new Date(Date.now() + 10 * 60_000) };
    try {
      expect(await y.t.app.services.payments.pollRefunds()).toBeGreaterThanOrEqual(1);
    } finally {
      y.t.app.services.payments.clock = clock;
    }
    expect((await refundsOf(order._id))[0]!.status).toBe('refused');
    expect(await available(customer)).toBe(PRICE);
    expect(await escrowOf(order._id)).toBe(0);
    await expectLedgerClean();
  });

  it('pending, then refund.succeeded from ЮKassa: read again by GET and settled once', async () => {
    y.fake.refunds.next.push('pending');
    const { customer, order, payment } = await cancelled();
    await runJobs();
    const [refund] = await refundsOf(order._id);
    y.fake.refunds.settle(refund!.providerRef!, 'succeeded');
    for (let i = 0; i < 2; i++) expect(await y.fake.sendRaw({ type: 'notification', event: 'refund.succeeded', object: { id: refund!.providerRef } })).toBe(200);
    expect((await refundsOf(order._id))[0]!.status).toBe('succeeded');
    expect(await transfers(`refund:${refund!.id}`)).toBe(1);
    expect(await available(customer)).toBe(0);
    expect(y.fake.deals.get(payment.providerDealRef!)!.balance.value).toBe('0.00');
    await expectLedgerClean();
  });
});

describe('a card-paid order decided by a dispute', () => {
  it('split: the seller’s part held for its payout out of the deal (ADR 053), the customer’s part refunded in the deal', async () => {
    const { seller, customer, order, payment, deal, commissionBp, sellerShare } = await paidByCard();
    const opened = await post<{ _id: string }>(customer, '/api/disputes/', { order_id: order._id, reason: 'not_delivered', description: 'Срок сдачи прошёл неделю назад, исполнитель не отвечает на сообщения.' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const admin = await signedInPerson(y.t.app, db(), { role: 'admin' });
    const resolved = await post(admin, `/api/admin/disputes/${opened.body.result._id}/resolve`, { outcome: 'split', seller_percent: 60 });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const split = splitPrice(PRICE, 60, commissionBp);
    expect(await balancesOf(db(), seller.user.id)).toEqual({ available: 0, held: split.sellerNet });
    expect(await escrowOf(order._id)).toBe(split.customer);
    const texts = (await db().select({ m: messages.message }).from(messages)).map((r) => r.m);
    expect(texts.some((m) => m.includes('Заказчику возвращаются на карту'))).toBe(true);
    await runJobs();
    const [refund] = await refundsOf(order._id);
    expect(refund).toMatchObject({ status: 'succeeded', amount: split.customer, key: `settle:${order._id}:refund`, sellerReduction: sellerShare - split.sellerNet });
    const [at] = atFake(payment.providerRef!);
    expect(at).toMatchObject({ amount: { value: (split.customer / 100).toFixed(2) }, deal: { refund_settlements: [{ type: 'payout', amount: { value: ((sellerShare - split.sellerNet) / 100).toFixed(2) } }] } });
    // The deal keeps the seller's part: their payout (waiting for their card, deal-payouts.db.test.ts) and the fee on it.
    expect(deal.balance.value).toBe((split.seller / 100).toFixed(2));
    expect(await escrowOf(order._id)).toBe(0);
    expect(await available(customer)).toBe(0);
    expect(await balancesOf(db(), seller.user.id)).toEqual({ available: 0, held: split.sellerNet });
    await expectLedgerClean();
  });
});

describe('a card payment for an order already paid otherwise', () => {
  it('is refunded in its deal instead of going to the balance', async () => {
    const seller = await signedInPerson(y.t.app, db(), { role: 'seller' });
    const customer = await signedInPerson(y.t.app, db());
    const service = await createService(db(), seller.user.id, { price: PRICE, days: 3, revisions: 1 });
    const order = (await post<OrderDetail>(customer, '/api/orders', { service_id: service.id })).body.result;
    const paid = await post<{ payment_id: string }>(customer, '/api/payments/pay', { order_id: order._id, method: 'card' });
    const [payment] = await db().select().from(payments).where(eq(payments.id, paid.body.result.payment_id));
    await payOrderForTest(y.t.app, order._id); // paid from the balance meanwhile
    await y.fake.pay(payment!.providerRef!);
    const [after] = await db().select().from(payments).where(eq(payments.id, payment!.id));
    expect(after).toMatchObject({ status: 'credited', failureReason: PAYMENT_MESSAGES.refundedToCard });
    const [refund] = await refundsOf(order._id);
    expect(refund).toMatchObject({ status: 'pending', amount: PRICE, key: `payment:${payment!.id}:refund`, paymentId: payment!.id });
    // Held in the order's escrow beside the order's own price, as the deal holds it.
    expect(await escrowOf(order._id)).toBe(2 * PRICE);
    expect(await available(customer)).toBe(0);
    await expectLedgerClean();
    await runJobs();
    expect(atFake(payment!.providerRef!)).toHaveLength(1);
    expect(y.fake.deals.get(payment!.providerDealRef!)!.balance.value).toBe('0.00');
    expect((await refundsOf(order._id))[0]!.status).toBe('succeeded');
    expect(await escrowOf(order._id)).toBe(PRICE);
    expect(await available(customer)).toBe(0);
    await expectLedgerClean();
  });
});

describe('reconciling refunds with ЮKassa', () => {
  const today = () => new Date().toISOString().slice(0, 10);
  const reconcile = async () => {
    const reports = await y.t.app.services.payments.reconcile(today());
    expect(reports.map((r) => r.error)).toEqual([undefined]);
    return reports.flatMap((r) => r.found.map((f) => `${f.kind}:${f.providerRef}`)).sort();
  };

  it('finds each refund difference once: there not here, here not there, another amount, and the refusals', async () => {
    const refused = (await db().select().from(paymentRefunds).where(eq(paymentRefunds.status, 'refused'))).map((r) => `refund_refused:${r.providerRef ?? r.id}`);
    expect(refused).toHaveLength(2); // the 403 and the card network's cancellation above
    // Everything else above agrees with ЮKassa: its refunds, the deals' payments, the ledger's arrivals.
    expect(await reconcile()).toEqual(refused.sort());

    const unknown = await paidByCard();
    const stranger = y.fake.refunds.add(unknown.payment.providerRef!, '10.00'); // made in the shop's dashboard
    const other = await cancelled();
    await runJobs();
    const [otherRefund] = await refundsOf(other.order._id);
    y.fake.refunds.refunds.get(otherRefund!.providerRef!)!.amount.value = '999.00';
    const gone = await cancelled();
    await runJobs();
    const [goneRefund] = await refundsOf(gone.order._id);
    y.fake.refunds.refunds.delete(goneRefund!.providerRef!);

    const expected = [...refused, `refund_unknown:${stranger}`, `refund_amount:${otherRefund!.providerRef}`, `refund_not_at_provider:${goneRefund!.providerRef}`].sort();
    expect(await reconcile()).toEqual(expected);
    expect(await reconcile()).toEqual(expected);
    const rows = (await db().select().from(paymentDifferences)).filter((d) => d.kind.startsWith('refund_'));
    expect(rows.map((d) => `${d.kind}:${d.providerRef}`).sort()).toEqual(expected);
    expect(rows.find((d) => d.kind === 'refund_amount')!.details).toMatchObject({ provider_amount: 99_900, our_amount: PRICE, refund_id: otherRefund!.id });
  });
});
