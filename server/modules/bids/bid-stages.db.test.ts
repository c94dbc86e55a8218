import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { call, randomAddress } from '../../test/api.ts';
import type { Person } from '../../test/app.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { bids } from './schema.ts';
import { orders } from '../orders/schema.ts';
import { chats } from '../chat/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { BID_MESSAGES, STAGE_MESSAGES, type Bid } from '#contract/bids';
import { ORDER_MESSAGES } from '#contract/orders';
import { LEDGER_MESSAGES } from '#contract/money';

// Bids in stages (ADR 065, issue 30): a bid may carry 2..20 stages summing to its price and days; accepting it makes
// the head order and its stage orders in one transaction; the head is never paid itself.

const server = useTestApp({}, { dispatch: false });

const STAGES = [
  { title: 'Макеты', deliverable: 'Макеты трёх страниц в Figma', amount: 500_000, days: 3 },
  { title: 'Вёрстка', deliverable: 'Свёрстанный сайт на тестовом адресе', amount: 1_000_000, days: 4 },
];
const input = (overrides: Record<string, unknown> = {}) => ({
  price: 1_500_000,
  days: 7,
  comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
  stages: STAGES,
  ...overrides,
});

const place = (who: Person, projectId: string, body: unknown) =>
  call<Bid>(server.app, 'POST', `/api/projects/${projectId}/bids`, { token: who.token, body, remoteAddress: randomAddress() });

async function setup() {
  const owner = await server.person({ role: 'customer' });
  const seller = await server.person({ role: 'seller', roles: ['customer', 'seller'] });
  const projectId = (await createProject(server.db, owner.user.id)).id;
  return { owner, seller, projectId };
}

describe('a bid in stages', () => {
  it('is placed with its stages, shown with them, and edited to none', async () => {
    const { seller, projectId } = await setup();
    const res = await place(seller, projectId, input());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.stages).toEqual(STAGES);
    const edited = await call<Bid>(server.app, 'PUT', `/api/bids/${res.body.result._id}`, { token: seller.token, body: input({ stages: undefined }) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.result.stages).toBeNull();
    const [row] = await server.db.select().from(bids).where(eq(bids.id, res.body.result._id));
    expect(row!.stages).toBeNull();
  });

  it('is refused with a Russian 400 when its stages do not add up or break a bound', async () => {
    const { seller, projectId } = await setup();
    const refused = async (body: unknown, message: string | RegExp) => {
      const res = await place(seller, projectId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    };
    await refused(input({ price: 1_600_000 }), STAGE_MESSAGES.sumPrice);
    await refused(input({ days: 8 }), STAGE_MESSAGES.sumDays);
    await refused(input({ stages: [STAGES[0]] }), /Этапов — от 2/);
    await refused(input({ stages: Array.from({ length: 21 }, () => ({ ...STAGES[0], amount: 100_000, days: 1 })), price: 2_100_000, days: 21 }), /Этапов — не больше 20/);
    await refused(input({ stages: [{ ...STAGES[0], title: 'я'.repeat(121) }, STAGES[1]] }), /Название этапа — до 120/);
    await refused(input({ stages: [{ ...STAGES[0], deliverable: 'я'.repeat(1001) }, STAGES[1]] }), /Результат этапа — до 1000/);
    await refused(input({ stages: [{ ...STAGES[0], days: 0 }, { ...STAGES[1], days: 7 }] }), /Срок этапа — от 1 дня/);
    await refused(input({ stages: [{ ...STAGES[0], amount: 1, days: 3 }, { ...STAGES[1], amount: 1_499_999 }] }), /Сумма этапа — от/);
    await refused(input({ stages: [{ ...STAGES[0], amount: 500_000.5 }, STAGES[1]] }), /целое число копеек/);
    expect(await server.db.select().from(bids).where(eq(bids.projectId, projectId))).toEqual([]);
  });

  it('accepted, makes the head and its stages in one transaction; the head is never paid, stage 1 is', async () => {
    const { owner, seller, projectId } = await setup();
    const bid = (await place(seller, projectId, input())).body.result;
    // The customer accepts the stages they saw: without them, the terms changed.
    const blind = await call(server.app, 'POST', `/api/bids/${bid._id}/accept`, { token: owner.token, body: { price: bid.price, days: bid.days } });
    expect(blind.status).toBe(409);
    expect((blind.body as { message: string }).message).toBe(BID_MESSAGES.changed);
    const res = await call<{ order_id: string; chat_id: string }>(server.app, 'POST', `/api/bids/${bid._id}/accept`, {
      token: owner.token,
      body: { price: bid.price, days: bid.days, stages: bid.stages },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const headId = res.body.result.order_id;
    const [head] = await server.db.select().from(orders).where(eq(orders.id, headId));
    expect(head).toMatchObject({ bidId: bid._id, headId: null, stage: null, price: 1_500_000, days: 7, status: 'awaiting_payment' });
    const stages = await server.db.select().from(orders).where(eq(orders.headId, headId)).orderBy(asc(orders.stage));
    expect(stages.map((s) => [s.stage, s.stageTitle, s.stageDeliverable, s.price, s.days, s.status, s.bidId])).toEqual([
      [1, 'Макеты', 'Макеты трёх страниц в Figma', 500_000, 3, 'awaiting_payment', null],
      [2, 'Вёрстка', 'Свёрстанный сайт на тестовом адресе', 1_000_000, 4, 'awaiting_payment', null],
    ]);
    for (const s of stages) expect(s).toMatchObject({ customerId: owner.user.id, sellerId: seller.user.id, projectId, commissionBp: head!.commissionBp });
    // One chat, the head's: the workspace of the whole job.
    const chatRows = await server.db.select().from(chats).where(eq(chats.orderId, headId));
    expect(chatRows.map((c) => c.id)).toEqual([res.body.result.chat_id]);
    for (const s of stages) expect(await server.db.select().from(chats).where(eq(chats.orderId, s.id))).toEqual([]);
    // No stage is a draft: the draft job is never queued for one.
    const expiries = await server.db.select().from(outbox).where(eq(outbox.name, 'orders.expireDraft'));
    expect(expiries.filter((j) => stages.some((s) => JSON.stringify(j).includes(s.id)))).toEqual([]);

    const pay = (orderId: string, key: string) =>
      call(server.app, 'POST', '/api/payments/pay', { token: owner.token, body: { order_id: orderId, method: 'balance' }, headers: { 'idempotency-key': key } });
    const headPaid = await pay(headId, `head-${headId}`);
    expect(headPaid.status, JSON.stringify(headPaid.body)).toBe(409);
    expect((headPaid.body as { message: string }).message).toBe(ORDER_MESSAGES.headNotPayable);
    // Stage 1 is payable as an order is: here it passes payable and is refused only for want of balance.
    const stagePaid = await pay(stages[0]!.id, `stage-${stages[0]!.id}`);
    expect((stagePaid.body as { message?: string }).message).toBe(LEDGER_MESSAGES.insufficientFunds);
  });
});
