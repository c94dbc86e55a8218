import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { call, randomAddress } from '../../test/api.ts';
import type { Person } from '../../test/app.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { manualClock } from '../../platform/clock.ts';
import { outbox } from '../../platform/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { orders } from './schema.ts';
import { payOrderForTest } from './testing.ts';
import { remindStageFunding } from './commands/stage-reminder.ts';
import type { Bid } from '#contract/bids';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../ledger/index.ts';

// The funding reminder of a stage (ADR 065): the stage before it completed, and it stays unfunded
// orders.stageFundingReminderDays days; once per stage, to the customer and to the seller. And a stage's steps are
// named as a stage in their letters and notifications, through the real API.

const DAY = 86_400_000;
const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const server = useTestApp({}, { dispatch: false, clock });

const STAGES = [
  { title: 'Макеты', deliverable: 'Макеты трёх страниц', amount: 500_000, days: 3 },
  { title: 'Вёрстка', deliverable: 'Свёрстанный сайт', amount: 600_000, days: 3 },
  { title: 'Запуск', deliverable: 'Сайт на хостинге', amount: 400_000, days: 1 },
];

const post = <T = unknown>(who: Person, url: string, body: unknown = {}) => call<T>(server.app, 'POST', url, { token: who.token, body, remoteAddress: randomAddress() });
const run = () => {
  const { platform, settings, letters } = server.app.services;
  return remindStageFunding({ db: server.db, platform, settings, letters });
};

/** A three-stage job from an accepted bid; stage 1 paid, delivered and accepted at the clock's time. */
async function jobWithFirstStageDone() {
  const customer = await server.person({ role: 'customer' });
  const seller = await server.person({ role: 'seller', roles: ['customer', 'seller'] });
  const projectId = (await createProject(server.db, customer.user.id)).id;
  const bid = (await post<Bid>(seller, `/api/projects/${projectId}/bids`, { price: 1_500_000, days: 7, comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры в профиле.', stages: STAGES })).body.result;
  const accepted = await post<{ order_id: string; chat_id: string }>(customer, `/api/bids/${bid._id}/accept`, { price: bid.price, days: bid.days, stages: bid.stages });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const headId = accepted.body.result.order_id;
  const stages = await server.db.select().from(orders).where(eq(orders.headId, headId)).orderBy(asc(orders.stage));
  const ids = stages.map((s) => s.id);
  await payOrderForTest(server.app, ids[0]!);
  expect((await post(seller, `/api/orders/${ids[0]}/deliver`, { message: 'Макеты готовы', files: [] })).status).toBe(200);
  expect((await post(customer, `/api/orders/${ids[0]}/accept`)).status).toBe(200);
  const [head] = await server.db.select().from(orders).where(eq(orders.id, headId));
  return { customer, seller, headId, number: head!.number, chatId: accepted.body.result.chat_id, ids };
}

const remindersOf = (userId: string) =>
  server.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, 'order.stageFunding')));
const lettersTo = (email: string, like: string) =>
  server.db.select().from(outbox).where(and(eq(outbox.kind, 'letter'), sql`${outbox.payload} ->> 'to' = ${email}`, sql`${outbox.payload} -> 'letter' ->> 'subject' like ${like}`));

describe('the funding reminder of a stage', () => {
  it('goes once to each side when stage 2 stays unfunded the set days after stage 1 completed, however often the job runs', async () => {
    const job = await jobWithFirstStageDone();
    clock.advance(3 * DAY - 60_000);
    await run();
    expect(await remindersOf(job.customer.user.id)).toEqual([]);

    clock.advance(120_000);
    // Two instances at once, then a later run: the claim lets one send.
    await Promise.all([run(), run()]);
    await run();
    const [toCustomer, ...moreToCustomer] = await remindersOf(job.customer.user.id);
    expect(moreToCustomer).toEqual([]);
    expect(toCustomer).toMatchObject({ text: `Оплатите этап 2 «Вёрстка» заказа №${job.number}, чтобы исполнитель начал работу`, link: `/payments/${job.ids[1]}` });
    const toSeller = await remindersOf(job.seller.user.id);
    expect(toSeller.map((n) => [n.text, n.link])).toEqual([
      [`Этап 2 «Вёрстка» заказа №${job.number} ещё не оплачен — начинайте работу после оплаты`, `/profile/messages?tab=orders&chat=${job.chatId}`],
    ]);
    expect(await lettersTo(job.customer.user.email, `Оплатите этап 2 «Вёрстка» заказа №${job.number}%`)).toHaveLength(1);
    expect(await lettersTo(job.seller.user.email, `Этап 2 «Вёрстка» заказа №${job.number}%`)).toHaveLength(1);
    // Stage 3's previous stage (2) has not completed: nothing about it.
    const [third] = await server.db.select().from(orders).where(eq(orders.id, job.ids[2]!));
    expect(third!.stageRemindedAt).toBeNull();
  });

  it('is not sent for a funded stage, nor for a dropped one, nor before its time', async () => {
    const funded = await jobWithFirstStageDone();
    await payOrderForTest(server.app, funded.ids[1]!);
    const dropped = await jobWithFirstStageDone();
    expect((await post(dropped.customer, `/api/orders/${dropped.ids[1]}/cancel`, { reason: 'Вёрстка не нужна' })).status).toBe(200);
    clock.advance(2 * DAY);
    const early = await jobWithFirstStageDone();
    clock.advance(1 * DAY + 60_000);
    await run();
    for (const job of [funded, early]) {
      expect(await remindersOf(job.customer.user.id), `${job.number}`).toEqual([]);
      expect(await remindersOf(job.seller.user.id), `${job.number}`).toEqual([]);
    }
    // A dropped stage is never reminded of, and does not count as the previous stage: stage 3 follows stage 1.
    expect((await remindersOf(dropped.customer.user.id)).map((n) => n.text)).toEqual([`Оплатите этап 3 «Запуск» заказа №${dropped.number}, чтобы исполнитель начал работу`]);
    const [second] = await server.db.select().from(orders).where(eq(orders.id, dropped.ids[1]!));
    expect(second).toMatchObject({ status: 'cancelled', stageRemindedAt: null });
    // The early one's time comes: its stage 1 completed a day and a minute ago.
    clock.advance(2 * DAY);
    await run();
    expect(await remindersOf(early.customer.user.id)).toHaveLength(1);
  });

  it('waits the days the operator set', async () => {
    const admin = await server.person({ role: 'admin' });
    expect((await call(server.app, 'PUT', '/api/admin/settings', { token: admin.token, body: { 'orders.stageFundingReminderDays': 5 } })).status).toBe(200);
    try {
      const job = await jobWithFirstStageDone();
      clock.advance(4 * DAY);
      await run();
      expect(await remindersOf(job.customer.user.id)).toEqual([]);
      clock.advance(1 * DAY + 60_000);
      await run();
      expect(await remindersOf(job.customer.user.id)).toHaveLength(1);
      expect(await remindersOf(job.seller.user.id)).toHaveLength(1);
    } finally {
      await call(server.app, 'PUT', '/api/admin/settings', { token: admin.token, body: { 'orders.stageFundingReminderDays': 3 } });
    }
  });
});

describe('a stage’s steps in letters and notifications', () => {
  it('a delivery of stage 2 names the stage in the customer’s letter and notification, which open the head’s chat', async () => {
    const job = await jobWithFirstStageDone();
    await payOrderForTest(server.app, job.ids[1]!);
    const delivered = await post(job.seller, `/api/orders/${job.ids[1]}/deliver`, { message: 'Вёрстка готова', files: [] });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    const [notice] = await server.db.select().from(notifications).where(and(eq(notifications.userId, job.customer.user.id), sql`${notifications.text} like 'Работа по этапу 2%'`));
    expect(notice).toMatchObject({ kind: 'order.event', text: `Работа по этапу 2 «Вёрстка» заказа №${job.number} сдана`, link: `/profile/messages?tab=orders&chat=${job.chatId}` });
    const [letter] = await lettersTo(job.customer.user.email, `Работа по этапу 2 «Вёрстка» заказа №${job.number} сдана%`);
    expect((letter!.payload as { letter: { text: string } }).letter.text).toContain(`/profile/messages?tab=orders&chat=${job.chatId}`);
    // The seller was told of stage 2's payment as a stage's too.
    const paid = await server.db.select().from(notifications).where(and(eq(notifications.userId, job.seller.user.id), eq(notifications.text, `Этап 2 «Вёрстка» заказа №${job.number} оплачен — можно приступать`)));
    expect(paid).toHaveLength(1);
  });
});

describe('a stage on the finance pages', () => {
  type Named = { order: { _id: string; number: number; stage: { number: number; title: string } | null; label: string } | null };
  it('the customer’s entries and payments and the admin’s payments name it «Заказ №N, этап K «…»»', async () => {
    const job = await jobWithFirstStageDone();
    const admin = await server.person({ role: 'admin' });
    // Money on the balance, then stage 2 paid from it through the API (a payment row of its own).
    await server.app.services.platform.withTx(systemActor('test:top-up'), (ctx) =>
      postTransfer(ctx.tx, {
        kind: 'payment',
        key: `payment:test-top-up-${job.headId}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -600_000 },
          { account: { kind: 'available', userId: job.customer.user.id }, amount: 600_000 },
        ],
      }),
    );
    const paid = await call(server.app, 'POST', '/api/payments/pay', { token: job.customer.token, body: { order_id: job.ids[1], method: 'balance' }, headers: { 'idempotency-key': `pay-${job.ids[1]}` } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const label = `Заказ №${job.number}, этап 2 «Вёрстка»`;
    const expected = { _id: job.ids[1], number: job.number, stage: { number: 2, title: 'Вёрстка' }, label };

    const entries = await call<Named[]>(server.app, 'GET', '/api/finance/entries', { token: job.customer.token });
    expect(entries.status, JSON.stringify(entries.body)).toBe(200);
    expect(entries.body.result.filter((e) => e.order?._id === job.ids[1]).map((e) => e.order)).toContainEqual(expect.objectContaining(expected));
    // Stage 1's lines too, and nothing is named by a stage's own number.
    expect(entries.body.result.flatMap((e) => (e.order ? [e.order.label] : []))).toContain(`Заказ №${job.number}, этап 1 «Макеты»`);
    expect(entries.body.result.every((e) => !e.order || e.order.number === job.number)).toBe(true);

    const mine = await call<Named[]>(server.app, 'GET', '/api/payments/my', { token: job.customer.token });
    expect(mine.body.result.map((p) => p.order)).toContainEqual(expect.objectContaining(expected));
    const all = await call<Named[]>(server.app, 'GET', '/api/admin/payments', { token: admin.token, query: { limit: '100' } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.result.map((p) => p.order)).toContainEqual(expect.objectContaining(expected));
    // The receipt says what was paid.
    expect(await lettersTo(job.customer.user.email, `Оплата этапа 2 «Вёрстка» заказа №${job.number} получена%`)).toHaveLength(1);
  });
});
