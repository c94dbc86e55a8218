import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type Person, signedInPerson } from '../../test/app.ts';
import { balanceOf, balancesOf } from '../ledger/index.ts';
import { orders } from '../orders/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { paymentDifferences, paymentRefunds, payments, withdrawals } from './schema.ts';
import { useYookassaApp } from './testing-yookassa.ts';
import { createService } from '../../db/catalog-factories.ts';
import type { OrderDetail } from '#contract/orders';

// A safe deal's lifetime (ADR 058), against the local ЮKassa: before the end, reminders to those who can prevent it;
// after it, when ЮKassa has closed the deal and returned its money to the card by itself, the ledger follows: an
// open order is cancelled with ЮKassa's refund as its own, a payout still waiting for details is returned to the
// customer's card with the platform's fee, and a dispute still open is put before the admin, whose full refund then
// meets ЮKassa's. No refund is asked of ЮKassa for a closed deal, and reconciliation finds nothing unknown.

const PRICE = 100_000;
const DAY = 86_400_000;
const y = useYookassaApp();
const { db, post, runJobs, expectLedgerClean } = y;
const service = () => y.t.app.services.payments;
const real = () => new Date();
afterEach(() => {
  service().clock = { now: real };
});
/** The payments' clock moved to `ms` before (negative) or after the deal's end. */
const at = (end: Date, ms: number) => (service().clock = manualClock(end.getTime() + ms));
const endOf = async (paymentId: string) => (await db().select().from(payments).where(eq(payments.id, paymentId)))[0]!;
const noticesOf = async (p: Person, kind: string) =>
  (await db().select({ kind: notifications.kind, text: notifications.text }).from(notifications).where(eq(notifications.userId, p.user.id))).filter((n) => n.kind === kind);
const refundPosts = () => y.fake.requests.filter((r) => r.path === '/v3/refunds' && r.method === 'POST').length;
const reconcileToday = async () => {
  const reports = await service().reconcile(new Date().toISOString().slice(0, 10));
  expect(reports.map((r) => r.error)).toEqual([undefined]);
  return reports.flatMap((r) => r.found.map((f) => f.kind));
};

/** A card-paid order, delivered and accepted by its customer; its seller has given no card: the payout waits. */
async function completedWithoutDetails() {
  const paid = await y.paidByCard(PRICE);
  expect((await post(paid.seller, `/api/orders/${paid.order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
  expect((await post(paid.customer, `/api/orders/${paid.order._id}/accept`)).status).toBe(200);
  const [payout] = await db().select().from(withdrawals).where(eq(withdrawals.orderId, paid.order._id));
  expect(payout).toMatchObject({ status: 'awaiting_details', dealRef: paid.deal.id });
  return { ...paid, payout: payout! };
}

describe("a safe deal's lifetime", () => {
  it('is stored with the payment, and a seller whose payout waits is reminded two weeks and three days before, once each', async () => {
    const o = await completedWithoutDetails();
    const end = (await endOf(o.payment.id)).dealExpiresAt!;
    expect(end.toISOString()).toBe(o.deal.expires_at);

    at(end, -20 * DAY);
    expect(await service().watchDeals()).toEqual({ reminded: 0, ended: 0 });
    at(end, -13 * DAY);
    expect((await service().watchDeals()).reminded).toBeGreaterThanOrEqual(1);
    await service().watchDeals();
    const first = await noticesOf(o.seller, 'deal.ending');
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toContain(`за заказ №${o.order.number} вернутся заказчику`);
    at(end, -2 * DAY);
    await service().watchDeals();
    await service().watchDeals();
    expect(await noticesOf(o.seller, 'deal.ending')).toHaveLength(2);
    expect((await endOf(o.payment.id)).dealReminders).toBe(2);
    // The customer has nothing to do: the order is completed.
    expect(await noticesOf(o.customer, 'deal.ending')).toHaveLength(0);
  });

  it('ended with the payout still waiting: returned to the customer’s card with the platform’s fee, as ЮKassa did', async () => {
    const o = await completedWithoutDetails();
    const end = (await endOf(o.payment.id)).dealExpiresAt!;
    const revenue = await balanceOf(db(), { kind: 'revenue' });
    const card = await balanceOf(db(), { kind: 'external', method: 'card' });
    expect(await balancesOf(db(), o.seller.user.id)).toEqual({ available: 0, held: o.sellerShare });

    // Past the end, but ЮKassa has not closed the deal yet: nothing changes.
    at(end, DAY);
    expect(await service().watchDeals()).toEqual({ reminded: 0, ended: 0 });
    expect((await endOf(o.payment.id)).dealEndedAt).toBeNull();

    const returned = (await y.fake.endDeal(o.deal.id))!;
    expect(returned.amount.value).toBe('1000.00'); // the whole payment: the fee was never taken (fee_moment=deal_closed)
    expect((await service().watchDeals()).ended).toBeGreaterThanOrEqual(1);
    expect((await endOf(o.payment.id)).dealEndedAt).not.toBeNull();
    const [payout] = await db().select().from(withdrawals).where(eq(withdrawals.id, o.payout.id));
    expect(payout).toMatchObject({ status: 'returned', rejectReason: PAYMENT_MESSAGES.dealEnded });
    expect(await balancesOf(db(), o.seller.user.id)).toEqual({ available: 0, held: 0 });
    expect(await balanceOf(db(), { kind: 'external', method: 'card' })).toBe(card + PRICE);
    expect(await balanceOf(db(), { kind: 'revenue' })).toBe(revenue - (PRICE - o.sellerShare));
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.key, `deal-end:${o.payment.id}`));
    expect(refund).toMatchObject({ status: 'succeeded', amount: PRICE, providerRef: returned.id });
    expect(await noticesOf(o.seller, 'deal.ended')).toHaveLength(1);
    expect(await noticesOf(o.customer, 'deal.ended')).toHaveLength(1);
    // Once: the next runs find the deal ended.
    await service().watchDeals();
    expect(await balanceOf(db(), { kind: 'external', method: 'card' })).toBe(card + PRICE);
    await expectLedgerClean();
    expect((await reconcileToday()).filter((k) => k.startsWith('refund_'))).toEqual([]);
  });

  it('ended with the order still open: cancelled, its refund ЮKassa’s own (none asked of a closed deal)', async () => {
    const o = await y.paidByCard(PRICE);
    const end = (await endOf(o.payment.id)).dealExpiresAt!;
    at(end, -2 * DAY);
    await service().watchDeals();
    for (const p of [o.customer, o.seller]) expect(await noticesOf(p, 'deal.ending')).toHaveLength(1);

    at(end, 2 * 60_000);
    const returned = (await y.fake.endDeal(o.deal.id))!;
    const posts = refundPosts();
    expect((await service().watchDeals()).ended).toBeGreaterThanOrEqual(1);
    const [order] = await db().select().from(orders).where(eq(orders.id, o.order._id));
    expect(order).toMatchObject({ status: 'cancelled', cancelledBy: null, cancelReason: ORDER_MESSAGES.dealExpired });
    await runJobs();
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.key, `settle:${o.order._id}`));
    expect(refund).toMatchObject({ status: 'succeeded', amount: PRICE, providerRef: returned.id });
    expect(refundPosts()).toBe(posts);
    expect(await balanceOf(db(), { kind: 'escrow', orderId: o.order._id })).toBe(0);
    expect((await balancesOf(db(), o.customer.user.id)).available).toBe(0);
    await expectLedgerClean();
    expect((await reconcileToday()).filter((k) => k.startsWith('refund_'))).toEqual([]);
  });

  it('ended during a dispute: put before the admin; the full refund decided then is ЮKassa’s, and the difference closes', async () => {
    const o = await y.paidByCard(PRICE);
    const opened = await post<{ _id: string }>(o.customer, '/api/disputes/', { order_id: o.order._id, reason: 'not_delivered', description: 'Срок сдачи прошёл неделю назад, исполнитель не отвечает на сообщения.' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    // The deal's end is now (rather than the clock moved to it): the admin decides at the same time the refund is made.
    await db().update(payments).set({ dealExpiresAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, o.payment.id));
    const returned = (await y.fake.endDeal(o.deal.id))!;
    await service().watchDeals();
    await service().watchDeals();
    const open = () => db().select().from(paymentDifferences).where(and(eq(paymentDifferences.kind, 'deal_ended_in_dispute'), eq(paymentDifferences.providerRef, o.deal.id)));
    expect(await open()).toHaveLength(1);
    expect((await endOf(o.payment.id)).dealEndedAt).toBeNull();

    const admin = await signedInPerson(y.t.app, db(), { role: 'admin' });
    const posts = refundPosts();
    const resolved = await post(admin, `/api/admin/disputes/${opened.body.result._id}/resolve`, { outcome: 'refund' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    await runJobs();
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, o.order._id));
    expect(refund).toMatchObject({ status: 'succeeded', amount: PRICE, providerRef: returned.id });
    expect(refundPosts()).toBe(posts);
    expect((await balancesOf(db(), o.customer.user.id)).available).toBe(0);

    await service().watchDeals();
    const [difference] = await open();
    expect(difference!.resolvedAt).not.toBeNull();
    expect((await endOf(o.payment.id)).dealEndedAt).not.toBeNull();
    await expectLedgerClean();
  });

  it('leaves alone the empty deal of an abandoned card payment whose order a second payment paid', async () => {
    const seller = await signedInPerson(y.t.app, db(), { role: 'seller' });
    const customer = await signedInPerson(y.t.app, db());
    const offer = await createService(db(), seller.user.id, { price: PRICE, days: 3, revisions: 1 });
    const order = (await post<OrderDetail>(customer, '/api/orders', { service_id: offer.id })).body.result;
    const pay = async () => {
      const paid = await post<{ payment_id: string }>(customer, '/api/payments/pay', { order_id: order._id, method: 'card' });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      return endOf(paid.body.result.payment_id);
    };
    const abandoned = await pay();
    await y.fake.cancel(abandoned.providerRef!);
    const second = await pay();
    await y.fake.pay(second.providerRef!);
    expect((await db().select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('in_progress');

    at(abandoned.dealExpiresAt!, 60_000);
    await y.fake.endDeal(abandoned.providerDealRef!);
    await service().watchDeals();
    // The order stands, paid by the second payment's deal (still open at ЮKassa).
    expect((await db().select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('in_progress');
    expect(await balanceOf(db(), { kind: 'escrow', orderId: order._id })).toBe(PRICE);
  });

  it('closed by the seller’s payout on its last day: nothing returned, the payout settles as paid', async () => {
    const o = await completedWithoutDetails();
    const end = (await endOf(o.payment.id)).dealExpiresAt!;
    const tokens = await fetch(`${y.fake.url}/payouts-data/tokens`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ account_id: y.fake.shopId, card_number: '2202201234567895' }) });
    const { payout_token, first6, last4, card_type } = (await tokens.json()) as Record<string, string>;
    const given = await post(o.seller, `/api/withdrawals/${o.payout.id}/details`, { method: 'card', payout_token, card: { first6, last4, card_type } });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    await runJobs();
    const sent = y.fake.payoutDesk.forWithdrawal(o.payout.id)!;
    // ЮKassa pays it out and closes the deal; its notification has not reached us when the watch runs.
    await y.fake.payoutDesk.succeedPayout(sent.id, { notify: false });
    expect(y.fake.deals.get(o.deal.id)!.status).toBe('closed');
    at(end, 60_000);
    await service().watchDeals();
    expect((await db().select().from(withdrawals).where(eq(withdrawals.id, o.payout.id)))[0]!.status).toBe('sending');
    expect((await endOf(o.payment.id)).dealEndedAt).toBeNull();
    await service().pollPayouts();
    expect((await db().select().from(withdrawals).where(eq(withdrawals.id, o.payout.id)))[0]!.status).toBe('approved');
    await service().watchDeals();
    expect((await endOf(o.payment.id)).dealEndedAt).not.toBeNull();
    expect(await balancesOf(db(), o.seller.user.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerClean();
  });
});

