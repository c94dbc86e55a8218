import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person, signedInPerson } from '../../test/app.ts';
import { balanceOf, balancesOf } from '../ledger/index.ts';
import { orders } from '../orders/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { splitPrice } from '#contract/money';
import { PAYMENT_MESSAGES, type Withdrawal } from '#contract/payments';
import { paymentRefunds, withdrawals } from './schema.ts';
import { PAYOUT_JOB, payoutJobKey } from './commands/payout.ts';
import { useYookassaApp } from './testing-yookassa.ts';

// The seller's share of a card-paid order, paid out of its ЮKassa safe deal (ADR 053), against the local ЮKassa:
// at completion it never reaches the seller's balance; it is held while ЮKassa pays it out of the deal to the
// seller's card or wallet (with the shop's credentials, `deal.id`, under `payout-<id>`), and leaves the ledger when
// ЮKassa says so. Without a card, or when the card is refused, it waits in the deal for one.

const PRICE = 100_000;
const y = useYookassaApp();
const { db, post, runJobs, expectLedgerClean } = y;
const payoutOf = async (orderId: string) => (await db().select().from(withdrawals).where(eq(withdrawals.orderId, orderId)))[0];
const payoutKeys = () => y.fake.requests.filter((r) => r.path === '/v3/payouts' && r.method === 'POST').map((r) => r.key);
const kindsFor = async (p: Person) =>
  (await db().select({ kind: notifications.kind, text: notifications.text }).from(notifications).where(eq(notifications.userId, p.user.id))).filter((n) => n.kind === 'payout.detailsNeeded');

/** What ЮKassa's payout widget does in the seller's browser: a token and a mask for a card number. */
async function tokenise(number = '2202201234567895') {
  const res = await fetch(`${y.fake.url}/payouts-data/tokens`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ account_id: y.fake.shopId, card_number: number }) });
  return (await res.json()) as { payout_token: string; first6: string; last4: string; card_type: string };
}

/** A card for the details endpoint, as the finance page sends it. */
async function cardDetails() {
  const { payout_token, first6, last4, card_type } = await tokenise();
  return { method: 'card', payout_token, card: { first6, last4, card_type } };
}

/** An order of a fresh seller's service, paid by a fresh customer's card through ЮKassa, and delivered. */
async function delivered() {
  const paid = await y.paidByCard(PRICE);
  expect((await post(paid.seller, `/api/orders/${paid.order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
  return { ...paid, net: paid.sellerShare };
}

/** The seller's card saved by an earlier payout: the details endpoint's, of a first order. */
async function withSavedCard() {
  const first = await delivered();
  expect((await post(first.customer, `/api/orders/${first.order._id}/accept`)).status).toBe(200);
  const waiting = await payoutOf(first.order._id);
  const given = await post(first.seller, `/api/withdrawals/${waiting!.id}/details`, await cardDetails());
  expect(given.status, JSON.stringify(given.body)).toBe(200);
  return first.seller;
}

/** A delivered order of a seller with a saved card, disputed by its customer and split 60/40 by an admin. */
async function splitSixtyForty() {
  const seller = await withSavedCard();
  const o = await delivered();
  await db().update(orders).set({ sellerId: seller.user.id }).where(eq(orders.id, o.order._id));
  const opened = await post<{ _id: string }>(o.customer, '/api/disputes/', { order_id: o.order._id, reason: 'not_delivered', description: 'Работа не соответствует описанию в заказе, нужны правки по макету.' });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const admin = await signedInPerson(y.t.app, db(), { role: 'admin' });
  expect((await post(admin, `/api/admin/disputes/${opened.body.result._id}/resolve`, { outcome: 'split', seller_percent: 60 })).status).toBe(200);
  return o;
}

describe("a card-paid order's completion", () => {
  it("pays the seller's share out of the deal to their saved card: held, then gone to the card; the deal closed", async () => {
    const seller = await withSavedCard();
    const o = await delivered();
    // The same seller's next order.
    await db().update(orders).set({ sellerId: seller.user.id }).where(eq(orders.id, o.order._id));
    const before = await balancesOf(db(), seller.user.id);
    expect((await post(o.customer, `/api/orders/${o.order._id}/accept`)).status).toBe(200);
    const w = (await payoutOf(o.order._id))!;
    expect(w).toMatchObject({ status: 'sending', amount: o.net, method: 'card', dealRef: o.deal.id, orderNumber: o.order.number, payoutProvider: 'yookassa' });
    expect(w.payoutToken).toBeTruthy();
    // Never on the balance: held for the payout while the deal still has it.
    const after = await balancesOf(db(), seller.user.id);
    expect(after.available).toBe(before.available);
    expect(after.held).toBe(before.held + o.net);
    await expectLedgerClean();

    await runJobs();
    const at = y.fake.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ status: 'pending', amount: { value: (o.net / 100).toFixed(2) }, deal: { id: o.deal.id }, metadata: { withdrawalId: w.id } });
    expect(at.self_employed).toBeUndefined();
    expect(payoutKeys().filter((k) => k === `payout-${w.id}`)).toHaveLength(1);
    const cardBefore = await balanceOf(db(), { kind: 'external', method: 'card' });
    await y.fake.payoutDesk.succeedPayout(at.id);
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'approved', payoutRef: at.id });
    expect((await balancesOf(db(), seller.user.id)).held).toBe(before.held);
    expect(await balanceOf(db(), { kind: 'external', method: 'card' })).toBe(cardBefore + o.net);
    // ЮKassa closed the deal; what is left in it is the platform's fee.
    expect(o.deal.status).toBe('closed');
    expect(o.deal.balance.value).toBe(((PRICE - o.net) / 100).toFixed(2));
    await expectLedgerClean();
  });

  it('waits for a card when the seller has none, then goes at once; a refused card asks for another, under a new key', async () => {
    const o = await delivered();
    expect((await post(o.customer, `/api/orders/${o.order._id}/accept`)).status).toBe(200);
    const w = (await payoutOf(o.order._id))!;
    expect(w).toMatchObject({ status: 'awaiting_details', amount: o.net, dealRef: o.deal.id });
    expect((await balancesOf(db(), o.seller.user.id)).held).toBe(o.net);
    expect(await kindsFor(o.seller)).toEqual([{ kind: 'payout.detailsNeeded', text: expect.stringContaining(`за заказ №${o.order.number}`) }]);
    await runJobs();
    expect(payoutKeys().filter((k) => k?.startsWith(`payout-${w.id}`))).toHaveLength(0);

    // Someone else cannot give details for it; a card number in the token's place is refused.
    const stranger = await signedInPerson(y.t.app, db(), { role: 'seller' });
    expect((await post(stranger, `/api/withdrawals/${w.id}/details`, await cardDetails())).status).toBe(404);
    const number = await post(o.seller, `/api/withdrawals/${w.id}/details`, { method: 'card', payout_token: '2202 2012 3456 7895', card: { first6: '220220', last4: '7895' } });
    expect(number.status).toBe(400);

    y.fake.payoutDesk.rejection = 'error';
    const given = await post<Withdrawal>(o.seller, `/api/withdrawals/${w.id}/details`, { method: 'yoomoney', destination: '4100 1175 8831 136' });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect(given.body.result).toMatchObject({ status: 'sending', method: 'yoomoney', order_number: o.order.number });
    await runJobs();
    y.fake.payoutDesk.rejection = null;
    // Refused: the money stays held (it is still in the deal), and the seller is asked again.
    const refused = (await payoutOf(o.order._id))!;
    expect(refused).toMatchObject({ status: 'awaiting_details', payoutAttempt: 2, rejectReason: PAYMENT_MESSAGES.dealPayoutReturned, payoutRef: null });
    expect((await balancesOf(db(), o.seller.user.id))).toMatchObject({ available: 0, held: o.net });
    expect(await kindsFor(o.seller)).toHaveLength(2);
    expect((await post(o.seller, `/api/withdrawals/${w.id}/details`, { method: 'yoomoney', destination: '410011758831136' })).status).toBe(200);
    expect((await post(o.seller, `/api/withdrawals/${w.id}/details`, { method: 'yoomoney', destination: '410011758831136' })).status).toBe(409);

    await runJobs();
    expect(payoutKeys().filter((k) => k === `payout-${w.id}-2`)).toHaveLength(1);
    const at = y.fake.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ deal: { id: o.deal.id }, payout_destination: { type: 'yoo_money', account_number: '410011758831136' } });
    await y.fake.payoutDesk.cancelPayout(at.id);
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'awaiting_details', payoutAttempt: 3 });
    expect((await post(o.seller, `/api/withdrawals/${w.id}/details`, await cardDetails())).status).toBe(200);
    await runJobs();
    const third = [...y.fake.payoutDesk.payouts.values()].filter((p) => p.metadata?.withdrawalId === w.id && p.status === 'pending');
    expect(third).toHaveLength(1);
    await y.fake.payoutDesk.succeedPayout(third[0]!.id);
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'approved', payoutRef: third[0]!.id });
    expect(await balancesOf(db(), o.seller.user.id)).toMatchObject({ available: 0, held: 0 });
    await expectLedgerClean();
  });

  it('a duplicate of the job answered with a refused try leaves the next try alone', async () => {
    const o = await delivered();
    expect((await post(o.customer, `/api/orders/${o.order._id}/accept`)).status).toBe(200);
    const w = (await payoutOf(o.order._id))!;
    y.fake.payoutDesk.rejection = 'canceled';
    expect((await post(o.seller, `/api/withdrawals/${w.id}/details`, { method: 'yoomoney', destination: '410011758831136' })).status).toBe(200);
    // The outbox's job and a duplicate of it (a retry, the poll's resend) read the same try and get ЮKassa's one answer.
    await Promise.all([y.t.app.services.payments.sendPayout(w.id), y.t.app.services.payments.sendPayout(w.id)]);
    y.fake.payoutDesk.rejection = null;
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'awaiting_details', payoutAttempt: 2, payoutRef: null });

    expect((await post(o.seller, `/api/withdrawals/${w.id}/details`, await cardDetails())).status).toBe(200);
    await runJobs();
    const next = [...y.fake.payoutDesk.payouts.values()].find((p) => p.metadata?.withdrawalId === w.id && p.status === 'pending');
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'sending', payoutAttempt: 2, payoutRef: next!.id });
    await y.fake.payoutDesk.succeedPayout(next!.id);
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'approved', payoutRef: next!.id });
    await expectLedgerClean();
  });

  it("a dispute's split: the customer's part refunded in the deal first, then the seller's part paid out of it", async () => {
    const o = await splitSixtyForty();
    const split = splitPrice(PRICE, 60, o.commissionBp);
    const w = (await payoutOf(o.order._id))!;
    expect(w).toMatchObject({ status: 'sending', amount: split.sellerNet });

    await runJobs();
    await runJobs();
    const [refund] = await db().select().from(paymentRefunds).where(and(eq(paymentRefunds.orderId, o.order._id)));
    expect(refund).toMatchObject({ status: 'succeeded', amount: split.customer });
    const at = y.fake.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ amount: { value: (split.sellerNet / 100).toFixed(2) }, deal: { id: o.deal.id } });
    // The refund went first (retried under load, perhaps, with its one key): a payout closes its deal.
    const calls = y.fake.requests.filter((r) => r.method === 'POST' && (r.key === `payout-${w.id}` || r.key === `refund-${refund!.id}`)).map((r) => r.path);
    expect(calls.indexOf('/v3/refunds')).toBe(0);
    expect(calls.lastIndexOf('/v3/refunds')).toBeLessThan(calls.indexOf('/v3/payouts'));
    await y.fake.payoutDesk.succeedPayout(at.id);
    expect(o.deal).toMatchObject({ status: 'closed', balance: { value: ((split.seller - split.sellerNet) / 100).toFixed(2) } });
    expect(await balanceOf(db(), { kind: 'escrow', orderId: o.order._id })).toBe(0);
    await expectLedgerClean();
  });

  it("a split's payout job that found the refund pending, still under way as the refund settles, is woken again", async () => {
    const o = await splitSixtyForty();
    const w = (await payoutOf(o.order._id))!;
    // The payout's job, held by another instance: it runs now, finds the refund pending, and returns.
    const job = and(eq(outbox.name, PAYOUT_JOB), eq(outbox.dedupeKey, payoutJobKey(w)));
    expect(await db().update(outbox).set({ lockedUntil: new Date(Date.now() + 3_600_000) }).where(job).returning({ id: outbox.id })).toHaveLength(1);
    await y.t.app.services.payments.sendPayout(w.id);
    // The refund settles meanwhile, while that job's row still holds its key: the refund's wake is not dropped for
    // it, and the payout goes.
    await runJobs();
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, o.order._id));
    expect(refund).toMatchObject({ status: 'succeeded' });
    await db().delete(outbox).where(job);
    const at = y.fake.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ amount: { value: (w.amount / 100).toFixed(2) }, deal: { id: o.deal.id } });
    await y.fake.payoutDesk.succeedPayout(at.id);
    expect((await payoutOf(o.order._id))!).toMatchObject({ status: 'approved', payoutRef: at.id });
    await expectLedgerClean();
  });
});
