import { asc, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { call, randomAddress } from '../../test/api.ts';
import type { Person } from '../../test/app.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { orders } from './schema.ts';
import { messages } from '../chat/schema.ts';
import { balancesOf, checkLedger, postTransfer } from '../ledger/index.ts';
import { commissionOn } from '#contract/money';
import { ORDER_MESSAGES, type OrderDetail } from '#contract/orders';
import type { Dispute } from '#contract/disputes';

// The steps of an order in stages through the real API (ADR 065, issue 30): a head's detail carries its stages with
// each member's steps; stages are funded in order; an unfunded stage is dropped; every stage's step is told in the
// head's chat and names the stage; a dispute is about one stage, whose split moves that stage's escrow alone.

const server = useTestApp({}, { dispatch: false });

const STAGES = [
  { title: 'Макеты', deliverable: 'Макеты в Figma', amount: 500_000, days: 3 },
  { title: 'Вёрстка', deliverable: 'Сайт на тестовом адресе', amount: 1_000_000, days: 4 },
  { title: 'Запуск', deliverable: 'Сайт на домене', amount: 400_000, days: 2 },
];
const PRICE = STAGES.reduce((s, x) => s + x.amount, 0);

const post = <T = OrderDetail>(who: Person, url: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  call<T>(server.app, 'POST', url, { token: who.token, body, headers, remoteAddress: randomAddress() });
const get = (who: Person, url: string) => call<OrderDetail>(server.app, 'GET', url, { token: who.token });

/** A project's bid in three stages, accepted: the head's id, with the customer holding `balance` kopecks. */
async function job(balance: number) {
  const customer = await server.person({ role: 'customer' });
  const seller = await server.person({ role: 'seller', roles: ['customer', 'seller'] });
  const admin = await server.person({ role: 'admin' });
  const project = await createProject(server.db, customer.user.id);
  const bid = await post<{ _id: string }>(seller, `/api/projects/${project.id}/bids`, {
    price: PRICE,
    days: 9,
    comment: 'Сделаю в три этапа: макеты, вёрстка и запуск на домене заказчика.',
    stages: STAGES,
  });
  expect(bid.status, JSON.stringify(bid.body)).toBe(200);
  const accepted = await post<{ order_id: string; chat_id: string }>(
    customer,
    `/api/bids/${bid.body.result._id}/accept`,
    { price: PRICE, days: 9, stages: STAGES },
  );
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  if (balance > 0)
    await server.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
      postTransfer(tx, {
        kind: 'payment',
        key: `test-top-up:${customer.user.id}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -balance },
          { account: { kind: 'available', userId: customer.user.id }, amount: balance },
        ],
      }),
    );
  const stageIds = (
    await server.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.headId, accepted.body.result.order_id))
      .orderBy(asc(orders.stage))
  ).map((s) => s.id);
  return {
    customer,
    seller,
    admin,
    headId: accepted.body.result.order_id,
    chatId: accepted.body.result.chat_id,
    stageIds,
  };
}

const pay = (who: Person, orderId: string) =>
  post(who, '/api/payments/pay', { order_id: orderId, method: 'balance' }, { 'idempotency-key': crypto.randomUUID() });
const chatTexts = async (chatId: string) =>
  (
    await server.db
      .select({ m: messages.message })
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(desc(messages.createdAt))
  ).map((r) => r.m);

describe('an order in stages, step by step', () => {
  it('presents the head with its stages, each with the member’s own steps; a stage names its head', async () => {
    const { customer, seller, headId, stageIds } = await job(0);
    const head = await get(customer, `/api/orders/${headId}`);
    expect(head.status, JSON.stringify(head.body)).toBe(200);
    const h = head.body.result;
    expect([h.stage_count, h.stage, h.actions]).toEqual([3, null, []]);
    expect(
      h.stages!.map((s) => [s._id, s.stage!.number, s.stage!.title, s.stage!.funds, s.price, s.stage_count]),
    ).toEqual([
      [stageIds[0], 1, 'Макеты', 'unfunded', 500_000, 0],
      [stageIds[1], 2, 'Вёрстка', 'unfunded', 1_000_000, 0],
      [stageIds[2], 3, 'Запуск', 'unfunded', 400_000, 0],
    ]);
    // Only stage 1 may be funded now; every unfunded stage may be dropped by either side.
    expect(h.stages!.map((s) => s.actions)).toEqual([['pay', 'cancel'], ['cancel'], ['cancel']]);
    const asSeller = (await get(seller, `/api/orders/${headId}`)).body.result;
    expect(asSeller.stages!.map((s) => s.actions)).toEqual([['cancel'], ['cancel'], ['cancel']]);
    const stage = (await get(customer, `/api/orders/${stageIds[1]}`)).body.result;
    expect(stage.stage).toMatchObject({
      head_id: headId,
      head_number: h.number,
      number: 2,
      deliverable: 'Сайт на тестовом адресе',
    });
    expect([stage.stages, stage.actions]).toEqual([null, ['cancel']]);
  });

  it('funds stages in order: a later stage waits for the earlier ones not dropped; funding ahead is allowed', async () => {
    const { customer, seller, headId, chatId, stageIds } = await job(PRICE);
    const early = await pay(customer, stageIds[1]!);
    expect(early.status, JSON.stringify(early.body)).toBe(409);
    expect((early.body as unknown as { message: string }).message).toBe(ORDER_MESSAGES.fundEarlierStage(1, 'Макеты'));
    expect((await pay(customer, stageIds[0]!)).status).toBe(200);
    // Stage 2 funded while stage 1 is still in work.
    expect((await pay(customer, stageIds[1]!)).status).toBe(200);
    // The seller drops stage 3 before it is funded: no money moves, the reason says so.
    const dropped = await post(seller, `/api/orders/${stageIds[2]}/cancel`, { reason: null });
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    const [row] = await server.db.select().from(orders).where(eq(orders.id, stageIds[2]!));
    expect([row!.status, row!.cancelReason, row!.paidAt]).toEqual(['cancelled', ORDER_MESSAGES.stageDropped, null]);
    const after = (await get(customer, `/api/orders/${headId}`)).body.result;
    expect(after.stages!.map((s) => s.stage!.funds)).toEqual(['held', 'held', 'dropped']);
    expect(after.status).toBe('in_progress');
    // A dropped stage is never funded.
    expect((await pay(customer, stageIds[2]!)).status).toBe(409);
    expect(await balancesOf(server.db, customer.user.id)).toEqual({ available: STAGES[2]!.amount, held: 0 });
    // Every step was told in the head's chat, naming its stage.
    const texts = await chatTexts(chatId);
    expect(texts).toContain('Этап 3 «Запуск»: Исполнитель снял этап до оплаты.');
    expect(
      texts.filter((t) => t.startsWith('Этап 1 «Макеты»:') || t.startsWith('Этап 2 «Вёрстка»:')).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('a dispute is about one stage: split 30 % moves that stage’s escrow alone, the others go on', async () => {
    const { customer, seller, admin, headId, chatId, stageIds } = await job(STAGES[0]!.amount + STAGES[1]!.amount);
    expect((await pay(customer, stageIds[0]!)).status).toBe(200);
    expect(
      (await post(seller, `/api/orders/${stageIds[0]}/deliver`, { message: 'Макеты готовы', files: [] })).status,
    ).toBe(200);
    expect((await post(customer, `/api/orders/${stageIds[0]}/accept`)).status).toBe(200);
    expect((await pay(customer, stageIds[1]!)).status).toBe(200);
    expect(
      (await post(seller, `/api/orders/${stageIds[1]}/deliver`, { message: 'Вёрстка готова', files: [] })).status,
    ).toBe(200);

    const opened = await post<Dispute>(customer, '/api/disputes/', {
      order_id: stageIds[1],
      reason: 'poor_quality',
      description: 'Вёрстка не совпадает с макетами: нет каталога и корзины на телефоне.',
      files: [],
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const head = (await get(customer, `/api/orders/${headId}`)).body;
    expect(head.result.status).toBe('disputed');
    expect(head.result.stages!.map((s) => s.status)).toEqual(['completed', 'disputed', 'awaiting_payment']);
    // The dispute names the stage under its head's number, and leads to the head's chat.
    expect(opened.body.result.order).toMatchObject({ number: head.result.number, chat_id: chatId });
    expect(opened.body.result.order.title).toMatch(/· этап 2 «Вёрстка»$/);
    // Stage 3 can still be funded meanwhile.
    expect(head.result.stages![2]!.actions).toContain('pay');

    expect((await post(admin, `/api/admin/disputes/${opened.body.result._id}/take`)).status).toBe(200);
    const resolved = await post(admin, `/api/admin/disputes/${opened.body.result._id}/resolve`, {
      outcome: 'split',
      seller_percent: 30,
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);

    const settled = (await get(customer, `/api/orders/${headId}`)).body.result;
    expect(settled.stages!.map((s) => [s.status, s.stage!.funds, s.stage!.released, s.stage!.refunded])).toEqual([
      ['completed', 'released', 500_000, 0],
      ['completed', 'split', 300_000, 700_000],
      ['awaiting_payment', 'unfunded', 0, 0],
    ]);
    expect(settled.status).toBe('in_progress');
    const [{ bp }] = (await server.db
      .select({ bp: orders.commissionBp })
      .from(orders)
      .where(eq(orders.id, headId))) as [{ bp: number }];
    expect(await balancesOf(server.db, customer.user.id)).toEqual({ available: 700_000, held: 0 });
    expect((await balancesOf(server.db, seller.user.id)).available).toBe(
      500_000 - commissionOn(500_000, bp) + 300_000 - commissionOn(300_000, bp),
    );
    // Stage 3 dropped: the job completes.
    expect((await post(customer, `/api/orders/${stageIds[2]}/cancel`, { reason: 'Запуск сделаем сами' })).status).toBe(
      200,
    );
    const done = (await get(customer, `/api/orders/${headId}`)).body.result;
    expect([done.status, done.stages![2]!.cancel_reason]).toEqual([
      'completed',
      `${ORDER_MESSAGES.stageDropped}: Запуск сделаем сами`,
    ]);
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });
});
