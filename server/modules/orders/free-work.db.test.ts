import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { ledgerTransfers } from '../ledger/schema.ts';
import { orders } from './schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { balanceOf, balancesOf, checkLedger } from '../ledger/index.ts';
import { payOrderForTest } from './testing.ts';
import { ORDER_MESSAGES, type OrderDetail } from '#contract/orders';
import type { Dispute } from '#contract/disputes';

// Issue 25, item 1 (ADR 039): "free work by cancellation". A customer must not get the price back by cancelling
// alone once work was delivered, nor call a seller late whom a dispute kept from delivering. Each way through the
// real API: 409, and not a kopeck moves.

const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const server = useTestApp({}, { dispatch: false, clock });

const MIN = 60_000;
const DAY = 86_400_000;
const PRICE = 100_000;

const post = <T = OrderDetail>(who: Person, url: string, body: unknown = {}) =>
  call<T>(server.app, 'POST', url, { token: who.token, body });
const orderRow = async (id: string) => (await server.db.select().from(orders).where(eq(orders.id, id)))[0]!;

/** A paid order of a 3-day service: the deadline is 3 days after payment. */
async function paidOrder() {
  const seller = await server.person({ role: 'seller' });
  const customer = await server.person();
  const service = await createService(server.db, seller.user.id, { price: PRICE, days: 3, revisions: 1 });
  const ordered = await post(customer, '/api/orders', { service_id: service.id });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  await payOrderForTest(server.app, ordered.body.result._id);
  return { seller, customer, order: ordered.body.result };
}

/** The escrow still holds the price, nobody was paid or refunded, nothing settled. */
async function expectNoMoneyMoved(o: { seller: Person; customer: Person; order: OrderDetail }) {
  expect(await balanceOf(server.db, { kind: 'escrow', orderId: o.order._id })).toBe(PRICE);
  expect((await balancesOf(server.db, o.customer.user.id)).available).toBe(0);
  expect((await balancesOf(server.db, o.seller.user.id)).available).toBe(0);
  expect(
    await server.db
      .select()
      .from(ledgerTransfers)
      .where(like(ledgerTransfers.key, `settle:${o.order._id}%`)),
  ).toEqual([]);
  expect((await checkLedger(server.db)).problems).toEqual([]);
}

async function expectCancelRefused(o: { customer: Person; order: OrderDetail }, message: string) {
  const res = await post(o.customer, `/api/orders/${o.order._id}/cancel`, { reason: 'Передумал' });
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.message).toBe(message);
  // The card does not offer it either; a cancellation both agree to still does.
  const card = await call<OrderDetail>(server.app, 'GET', `/api/orders/${o.order._id}`, { token: o.customer.token });
  expect(card.body.result.actions).not.toContain('cancel');
  expect(card.body.result.actions).toContain('propose_cancel');
}

describe('free work by cancellation', () => {
  it('way 1: a quick delivery within the window after payment closes the window', async () => {
    const o = await paidOrder();
    clock.advance(5 * MIN);
    expect((await post(o.seller, `/api/orders/${o.order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
    clock.advance(5 * MIN);
    await expectCancelRefused(o, ORDER_MESSAGES.deliveredNoCancel);
    expect((await orderRow(o.order._id)).status).toBe('delivered');
    await expectNoMoneyMoved(o);
  });

  it('way 2: delivered on time, the deadline passing before the auto-accept does not make the seller late', async () => {
    const o = await paidOrder();
    clock.advance(DAY);
    expect((await post(o.seller, `/api/orders/${o.order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
    clock.advance(2 * DAY + MIN); // past the deadline; the auto-accept comes a day later
    await expectCancelRefused(o, ORDER_MESSAGES.deliveredNoCancel);
    await expectNoMoneyMoved(o);
  });

  it('the same after a revision: sent back, then the deadline passes with the order in progress', async () => {
    const o = await paidOrder();
    clock.advance(DAY);
    await post(o.seller, `/api/orders/${o.order._id}/deliver`, { message: 'Готово' });
    expect((await post(o.customer, `/api/orders/${o.order._id}/revision`, { message: 'Поправьте цвета' })).status).toBe(
      200,
    );
    clock.advance(3 * DAY);
    expect((await orderRow(o.order._id)).status).toBe('in_progress');
    await expectCancelRefused(o, ORDER_MESSAGES.deliveredNoCancel);
    await expectNoMoneyMoved(o);
  });

  it("way 3: a dispute withdrawn after the deadline moves the deadline on by the dispute's time", async () => {
    const o = await paidOrder();
    const deadline = (await orderRow(o.order._id)).deadlineAt!;
    clock.advance(DAY);
    const opened = await post<Dispute>(o.customer, '/api/disputes/', {
      order_id: o.order._id,
      reason: 'poor_quality',
      description: 'Исполнитель делает не то, что было согласовано в задании.',
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    // The seller cannot deliver while disputed; the customer withdraws it after the deadline.
    clock.advance(3 * DAY);
    expect((await post(o.seller, `/api/orders/${o.order._id}/deliver`, { message: 'Готово' })).status).toBe(409);
    const withdrawn = await call<Dispute>(server.app, 'DELETE', `/api/disputes/${opened.body.result._id}`, {
      token: o.customer.token,
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect((await orderRow(o.order._id)).deadlineAt!.getTime()).toBe(deadline.getTime() + 3 * DAY);
    await expectCancelRefused(o, ORDER_MESSAGES.cancelLater);
    await expectNoMoneyMoved(o);

    // The seller still had two days: late only once the moved deadline passes with nothing delivered.
    clock.advance(2 * DAY);
    const late = await post(o.customer, `/api/orders/${o.order._id}/cancel`, { reason: 'Срок прошёл' });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect((await balancesOf(server.db, o.customer.user.id)).available).toBe(PRICE);
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });
});
