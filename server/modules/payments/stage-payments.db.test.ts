import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInPerson } from '../../test/app.ts';
import { call, randomAddress } from '../../test/api.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { orders } from '../orders/schema.ts';
import { payments } from './schema.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { useYookassaApp } from './testing-yookassa.ts';

// Issue 30 with the real rails (ADR 048, 051, 065): ЮKassa sees one payment, in one safe deal of its own, per funded
// stage, each for that stage's price and naming that stage's order; the head is never paid; a stage funded out of
// order is refused before anything is asked of ЮKassa.

const y = useYookassaApp();

const STAGES = [
  { title: 'Макеты', deliverable: 'Макеты в Figma', amount: 300_000, days: 2 },
  { title: 'Вёрстка', deliverable: 'Сайт на тестовом адресе', amount: 700_000, days: 3 },
  { title: 'Запуск', deliverable: 'Сайт на домене', amount: 200_000, days: 1 },
];
const PRICE = STAGES.reduce((s, x) => s + x.amount, 0);

describe('an order in stages paid by card through ЮKassa', () => {
  it('is one payment in one deal per funded stage, for that stage alone', async () => {
    const db = y.db();
    const customer = await signedInPerson(y.t.app, db);
    const seller = await signedInPerson(y.t.app, db, { role: 'seller' });
    const project = await createProject(db, customer.user.id);
    const bid = await call<{ _id: string }>(y.t.app, 'POST', `/api/projects/${project.id}/bids`, {
      token: seller.token,
      body: {
        price: PRICE,
        days: 6,
        comment: 'Три этапа: макеты, вёрстка, запуск на домене заказчика.',
        stages: STAGES,
      },
      remoteAddress: randomAddress(),
    });
    expect(bid.status, JSON.stringify(bid.body)).toBe(200);
    const accepted = await y.post<{ order_id: string }>(customer, `/api/bids/${bid.body.result._id}/accept`, {
      price: PRICE,
      days: 6,
      stages: STAGES,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const headId = accepted.body.result.order_id;
    const stageIds = (
      await db.select({ id: orders.id }).from(orders).where(eq(orders.headId, headId)).orderBy(asc(orders.stage))
    ).map((s) => s.id);
    const asked = () => y.fake.requests.filter((r) => r.path === '/v3/payments' && r.method === 'POST').length;
    const before = asked();

    // Neither the head nor a stage out of order reaches ЮKassa.
    const head = await y.post(customer, '/api/payments/pay', { order_id: headId, method: 'card' });
    expect([head.status, (head.body as { message?: string }).message]).toEqual([409, ORDER_MESSAGES.headNotPayable]);
    const early = await y.post(customer, '/api/payments/pay', { order_id: stageIds[1], method: 'card' });
    expect([early.status, (early.body as { message?: string }).message]).toEqual([
      409,
      ORDER_MESSAGES.fundEarlierStage(1, 'Макеты'),
    ]);
    expect(asked()).toBe(before);

    // Stages 1 and 2 funded by card; stage 3 not (yet).
    for (const id of stageIds.slice(0, 2)) {
      const paid = await y.post<{ payment_id: string }>(customer, '/api/payments/pay', {
        order_id: id,
        method: 'card',
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const [payment] = await db.select().from(payments).where(eq(payments.id, paid.body.result.payment_id));
      await y.fake.pay(payment!.providerRef!);
    }
    expect(asked()).toBe(before + 2);
    const ours = await db.select().from(payments).where(eq(payments.customerId, customer.user.id));
    expect(ours.map((p) => p.orderId).sort()).toEqual(stageIds.slice(0, 2).sort());
    const atYookassa = ours.map((p) => y.fake.payments.get(p.providerRef!)!);
    // Each names its stage's order, and each is in a deal of its own.
    expect(atYookassa.map((p) => p.metadata?.order_id).sort()).toEqual(stageIds.slice(0, 2).sort());
    const deals = new Set(ours.map((p) => p.providerDealRef));
    expect(deals.size).toBe(2);
    // Each payment is that stage's price (the method's fee, if any, on top) and no more.
    for (const p of ours)
      expect(p.amount, `payment of ${p.orderId}`).toBe(STAGES[stageIds.indexOf(p.orderId!)]!.amount);
    const states = await db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.headId, headId))
      .orderBy(asc(orders.stage));
    expect(states.map((s) => s.status)).toEqual(['in_progress', 'in_progress', 'awaiting_payment']);
    await y.expectLedgerClean();
  });
});
