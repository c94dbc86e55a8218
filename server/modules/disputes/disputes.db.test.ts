import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { orders } from '../orders/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { chatMembers, chats, messages } from '../chat/schema.ts';
import { users } from '../users/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { systemActor } from '../../platform/actor.ts';
import { balanceOf, balancesOf, checkLedger } from '../ledger/index.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { lostDisputeRecently, sellerLevel } from '../users/index.ts';
import { DISPUTE_MESSAGES, type AdminDisputeRow, type Dispute } from '#contract/disputes';
import { ORDER_MESSAGES, type OrderDetail } from '#contract/orders';

const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const server = useTestApp({}, { dispatch: false, clock });

const person = server.person;
const DAY = 86_400_000;
const PRICE = 100_000;
const post = <T = Dispute>(who: Person | null, url: string, body?: unknown) => call<T>(server.app, 'POST', url, { token: who?.token, body: body ?? {} });
const del = <T = Dispute>(who: Person | null, url: string) => call<T>(server.app, 'DELETE', url, { token: who?.token });
const get = <T = Dispute[]>(who: Person | null, url: string, query?: Record<string, string>) => call<T>(server.app, 'GET', url, { token: who?.token, query });
const DESCRIPTION = 'Срок сдачи прошёл неделю назад, исполнитель не отвечает на сообщения.';

/** A paid order (in progress, or delivered) of a fresh seller's service by a fresh customer. */
async function paidOrder(state: 'in_progress' | 'delivered' = 'in_progress') {
  const seller = await person({ role: 'seller' });
  const customer = await person();
  const service = await createService(server.db, seller.user.id, { price: PRICE, days: 3, revisions: 1 });
  const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  const order = ordered.body.result;
  await payOrderForTest(server.app, order._id);
  if (state === 'delivered') expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
  return { seller, customer, order };
}

const open = (who: Person, orderId: string, body: Record<string, unknown> = {}) =>
  post(who, '/api/disputes/', { order_id: orderId, reason: 'not_delivered', description: DESCRIPTION, ...body });
const orderRow = async (id: string) => (await server.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const available = async (p: Person) => (await balancesOf(server.db, p.user.id)).available;
const expectLedgerClean = async () => expect((await checkLedger(server.db)).problems).toEqual([]);
const noticesOf = async (userId: string) =>
  (await server.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, 'dispute.event')))).map((n) => n.text);

describe('opening a dispute', () => {
  it('freezes a paid order in disputed, opens its chat with both parties and tells the other party', async () => {
    const { seller, customer, order } = await paidOrder();
    const opened = await open(customer, order._id);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const dispute = opened.body.result;
    expect(dispute).toMatchObject({ status: 'open', reason: 'not_delivered', role: 'opener', can_cancel: true, decision: null, flagged: false });
    expect(dispute.order).toMatchObject({ _id: order._id, status: 'disputed', price: PRICE });
    expect(dispute.opened_by._id).toBe(customer.user.id);
    expect(dispute.respondent._id).toBe(seller.user.id);
    expect(dispute.chat.kind).toBe('dispute');
    expect(dispute.chat.members.map((m) => m._id).sort()).toEqual([customer.user.id, seller.user.id].sort());
    expect(await orderRow(order._id)).toMatchObject({ status: 'disputed', statusBeforeDispute: 'in_progress' });
    // What appeals call it: for its parties only.
    expect(await server.app.services.disputes.titleFor(seller.user, dispute._id)).toBe(`Спор по заказу №${order.number} «${order.title}»`);
    expect(await server.app.services.disputes.titleFor((await person()).user, dispute._id)).toBeNull();
    // …through the appeals API: a party objects to it; anyone else is told it does not exist.
    const target = await get<{ object: { title: string } | null }>(customer, '/api/appeals/target', { subject: 'dispute', object: dispute._id });
    expect(target.status, JSON.stringify(target.body)).toBe(200);
    expect(target.body.result.object?.title).toBe(`Спор по заказу №${order.number} «${order.title}»`);
    expect((await get(await person(), '/api/appeals/target', { subject: 'dispute', object: dispute._id })).status).toBe(404);
    // The admin home counts it among the open disputes.
    expect((await server.app.services.overview.overview({ period: '7' })).waiting.disputes).toBeGreaterThanOrEqual(1);
    expect(await noticesOf(seller.user.id)).toEqual([`Открыт спор по заказу №${order.number} «${order.title}»`]);

    // The respondent sees it too, with the chat's unseen count (the dispute's opening message).
    const theirs = await get(seller, '/api/disputes/my');
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.result[0]).toMatchObject({ _id: dispute._id, role: 'respondent', can_cancel: false, chat: { _id: dispute.chat._id, unseen_messages: 1 } });
    // SPEC §7: the dispute carries unseen_messages itself, for its parties and in the admin's queue.
    expect(theirs.body.result[0]!.unseen_messages).toBe(1);
    const row = (await get<AdminDisputeRow[]>(await person({ role: 'admin' }), '/api/admin/disputes')).body.result.find((d) => d._id === dispute._id);
    expect(row?.unseen_messages).toBe(row?.chat.unseen_messages);
    expect(row?.unseen_messages).toBeTypeOf('number');

    // Frozen: no second dispute, no delivery, no cancellation, no proposal.
    expect(await open(seller, order._id)).toMatchObject({ status: 409, body: { message: DISPUTE_MESSAGES.alreadyOpen } });
    expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' })).status).toBe(409);
    expect(await post(seller, `/api/orders/${order._id}/cancel`, {})).toMatchObject({ status: 409, body: { message: ORDER_MESSAGES.disputed } });
    expect(await post(customer, `/api/orders/${order._id}/cancel-proposal`, { reason: 'Хочу отменить' })).toMatchObject({
      status: 409,
      body: { message: ORDER_MESSAGES.disputed },
    });
  });

  it('refuses strangers (404), admins (403), unpaid orders (409) and bad fields (400 by field)', async () => {
    const { customer, order } = await paidOrder();
    const stranger = await person();
    const admin = await person({ role: 'admin' });
    expect((await open(stranger, order._id)).status).toBe(404);
    expect(await open(admin, order._id)).toMatchObject({ status: 403, body: { message: DISPUTE_MESSAGES.partiesOnly } });
    const bad = await post(customer, '/api/disputes/', { order_id: order._id, reason: 'nonsense', description: 'коротко' });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as unknown as { errors: Record<string, string[]> }).errors).sort()).toEqual(['description', 'reason']);
    // A reason of the other side (ADR 039): the customer does not complain that the customer does not accept.
    const notYours = await open(customer, order._id, { reason: 'not_accepted' });
    expect(notYours).toMatchObject({ status: 400, body: { message: DISPUTE_MESSAGES.reasonOfOtherSide, errors: { reason: [DISPUTE_MESSAGES.reasonOfOtherSide] } } });
    expect(await orderRow(order._id)).toMatchObject({ status: 'in_progress' });

    const seller = await person({ role: 'seller' });
    const service = await createService(server.db, seller.user.id, { price: PRICE, days: 3, revisions: 1 });
    const unpaid = (await post<OrderDetail>(customer, '/api/orders', { service_id: service.id })).body.result;
    expect(await open(customer, unpaid._id)).toMatchObject({ status: 409, body: { message: DISPUTE_MESSAGES.notOpenable } });
    expect(await orderRow(unpaid._id)).toMatchObject({ status: 'awaiting_payment' });
  });
});

describe('cancelling a dispute', () => {
  it('lets only the opener cancel; the order returns to its state', async () => {
    const { seller, customer, order } = await paidOrder();
    const dispute = (await open(customer, order._id)).body.result;
    expect(await del(seller, `/api/disputes/${dispute._id}`)).toMatchObject({ status: 403, body: { message: DISPUTE_MESSAGES.openerOnly } });
    expect((await del(await person(), `/api/disputes/${dispute._id}`)).status).toBe(404);
    const cancelled = await del(customer, `/api/disputes/${dispute._id}`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.result).toMatchObject({ status: 'cancelled', can_cancel: false, order: { status: 'in_progress' } });
    expect(await orderRow(order._id)).toMatchObject({ status: 'in_progress', statusBeforeDispute: null });
    expect(await del(customer, `/api/disputes/${dispute._id}`)).toMatchObject({ status: 409, body: { message: DISPUTE_MESSAGES.notOpen } });
    expect(await noticesOf(seller.user.id)).toContain(`Спор по заказу №${order.number} «${order.title}» отменён`);
    // The escrow never moved.
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(PRICE);
    // A new dispute may be opened again, with a reason of the seller's side (ADR 039).
    expect(await open(seller, order._id)).toMatchObject({ status: 400, body: { message: DISPUTE_MESSAGES.reasonOfOtherSide } });
    expect((await open(seller, order._id, { reason: 'not_accepted' })).status).toBe(200);
  });

  it("gives a delivered order's customer back the review time the dispute took", async () => {
    const { customer, order } = await paidOrder('delivered');
    const deliveredAt = (await orderRow(order._id)).deliveredAt!;
    clock.advance(2 * DAY);
    const dispute = (await open(customer, order._id)).body.result;
    // Past the auto-accept deadline (3 days) while disputed: the job skips a disputed order.
    clock.advance(5 * DAY);
    await server.app.services.platform.withTx(systemActor('test'), (ctx) => server.app.services.orders.autoAccept(ctx, order._id));
    expect((await orderRow(order._id)).status).toBe('disputed');
    const back = await del(customer, `/api/disputes/${dispute._id}`);
    expect(back.status).toBe(200);
    const row = await orderRow(order._id);
    expect(row.status).toBe('delivered');
    // Paused for the 5 days of the dispute: the customer still has the 1 day that was left.
    expect(row.deliveredAt!.getTime()).toBe(deliveredAt.getTime() + 5 * DAY);
    const detail = (await get<OrderDetail>(customer, `/api/orders/${order._id}`)).body.result;
    expect(detail.auto_accept_at).toBe(new Date(clock.now().getTime() + DAY).toISOString());
  });
});

describe('resolving a dispute', () => {
  async function disputed() {
    const parties = await paidOrder();
    const dispute = (await open(parties.customer, parties.order._id)).body.result;
    // Named as the seeded admin is: its name is its role (ADR 046, «Администратор Администратор»).
    const admin = await person({ role: 'admin', name: 'Администратор', surname: '' });
    return { ...parties, dispute, admin };
  }

  it('refunds the whole escrow to the customer and cancels the order', async () => {
    const { seller, customer, order, dispute, admin } = await disputed();
    const revenue = await balanceOf(server.db, { kind: 'revenue' });
    const resolved = await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'refund', comment: 'Работа не сдана' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.result).toMatchObject({
      status: 'resolved',
      order: { status: 'cancelled' },
      decision: { outcome: 'refund', seller_percent: 0, customer_amount: PRICE, seller_amount: 0, seller_net: 0, commission: 0, comment: 'Работа не сдана' },
    });
    expect(await available(customer)).toBe(PRICE);
    expect(await available(seller)).toBe(0);
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(0);
    expect(await balanceOf(server.db, { kind: 'revenue' })).toBe(revenue);
    expect(await noticesOf(customer.user.id)).toEqual([`Решение по спору о заказе №${order.number} «${order.title}»`]);
    expect(await noticesOf(seller.user.id)).toContain(`Решение по спору о заказе №${order.number} «${order.title}»`);
    // The seller lost it (less than half): no Профессионал for 90 days.
    expect(await server.app.services.disputes.lostRecently(seller.user.id)).toBe(true);
    const lostAt = (await server.db.select({ at: users.lostDisputeAt }).from(users).where(eq(users.id, seller.user.id)))[0]!.at;
    expect(lostAt?.getTime()).toBe(clock.now().getTime());
    // 60 orders rated 4.8 are Профессионал, unless a dispute was lost in the last 90 days.
    expect(sellerLevel(60, 480, lostDisputeRecently(lostAt, clock.now().getTime()))).toBe('advanced');
    expect(sellerLevel(60, 480, lostDisputeRecently(lostAt, clock.now().getTime() + 91 * DAY))).toBe('pro');
    clock.advance(91 * DAY);
    expect(await server.app.services.disputes.lostRecently(seller.user.id)).toBe(false);
    await expectLedgerClean();
  });

  it('releases the whole escrow to the seller as a completion settles it', async () => {
    const { seller, customer, dispute, admin } = await disputed();
    const revenue = await balanceOf(server.db, { kind: 'revenue' });
    const resolved = await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'release' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.result.decision).toMatchObject({ outcome: 'release', seller_percent: 100, seller_amount: PRICE, commission: 15_000, seller_net: 85_000, customer_amount: 0 });
    expect(resolved.body.result.order.status).toBe('completed');
    // The decision's words say what the seller's balance received, net of the commission (issue 25).
    const said = (await server.db.select().from(messages).where(eq(messages.chatId, resolved.body.result.chat._id))).map((m) => m.message);
    expect(said).toContainEqual(
      'Решение по спору. Полная оплата исполнителю: исполнителю зачислено 850\u00a0руб. (1\u00a0000\u00a0руб. за вычетом комиссии сервиса 150\u00a0руб.).',
    );
    expect(await available(seller)).toBe(85_000);
    expect(await available(customer)).toBe(0);
    expect((await balanceOf(server.db, { kind: 'revenue' })) - revenue).toBe(15_000);
    expect((await server.db.select({ n: users.completedOrders }).from(users).where(eq(users.id, seller.user.id)))[0]!.n).toBe(1);
    expect(await server.app.services.disputes.lostRecently(seller.user.id)).toBe(false);
    expect((await server.db.select({ at: users.lostDisputeAt }).from(users).where(eq(users.id, seller.user.id)))[0]!.at).toBeNull();
    await expectLedgerClean();
  });

  it('splits 30/70: exact kopecks for the seller, the customer and the platform, with messages in both chats', async () => {
    const { seller, customer, order, dispute, admin } = await disputed();
    const revenue = await balanceOf(server.db, { kind: 'revenue' });
    const resolved = await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'split', seller_percent: 30 });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    // 30 % of 1 000 руб. = 300 руб. to the seller less 15 % (45 руб.); 700 руб. back to the customer.
    expect(resolved.body.result.decision).toMatchObject({ seller_percent: 30, seller_amount: 30_000, commission: 4_500, seller_net: 25_500, customer_amount: 70_000 });
    expect(await available(seller)).toBe(25_500);
    expect(await available(customer)).toBe(70_000);
    expect((await balanceOf(server.db, { kind: 'revenue' })) - revenue).toBe(4_500);
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(0);
    // The admin joined the dispute's chat; a system message there and in the order's chat.
    const chatId = resolved.body.result.chat._id;
    expect((await server.db.select().from(chatMembers).where(eq(chatMembers.chatId, chatId))).map((m) => m.userId)).toContain(admin.user.id);
    const [orderChat] = await server.db.select().from(chats).where(and(eq(chats.orderId, order._id), eq(chats.kind, 'order')));
    for (const id of [chatId, orderChat!.id]) {
      const texts = (await server.db.select().from(messages).where(eq(messages.chatId, id))).map((m) => m.message);
      // What each balance received, the seller's net of the commission (issue 25): 700 + 255 + 45 = 1 000 руб.
      const words = 'исполнителю 30\u00a0% цены, заказчику 70\u00a0%. Заказчику вернулись 700\u00a0руб., исполнителю зачислено 255\u00a0руб. (300\u00a0руб. за вычетом комиссии сервиса 45\u00a0руб.).';
      expect(texts.filter((t) => t.includes(words))).toHaveLength(1);
      // No verb guessing a gender, no role doubled with a name that is the role (ADR 046).
      expect(texts.join('\n')).not.toMatch(/Администратор|открыл спор|присоединился/);
    }
    const disputeTexts = (await server.db.select().from(messages).where(eq(messages.chatId, chatId))).map((m) => m.message);
    expect(disputeTexts).toContain('Администрация подключилась к спору.');
    const orderTexts = (await server.db.select().from(messages).where(eq(messages.chatId, orderChat!.id))).map((m) => m.message);
    expect(orderTexts.some((t) => t.startsWith('Открыт спор по заказу по заявке заказчика.'))).toBe(true);
    // The decision's notification opens this dispute, not the list (nor a chat outside it).
    const links = (await server.db.select().from(notifications).where(and(eq(notifications.userId, seller.user.id), eq(notifications.kind, 'dispute.event')))).map((n) => n.link);
    expect(links).toContain(`/profile/disputes?dispute=${dispute._id}`);
    // Lost: less than half to the seller.
    expect(await server.app.services.disputes.lostRecently(seller.user.id)).toBe(true);
    // Closed: no cancel, no second decision.
    expect((await del(customer, `/api/disputes/${dispute._id}`)).status).toBe(409);
    expect(await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'refund' })).toMatchObject({
      status: 409,
      body: { message: DISPUTE_MESSAGES.alreadyResolved },
    });
    await expectLedgerClean();
  });

  it('gives one resolution when two admins decide at once; the other gets 409', async () => {
    const { seller, customer, dispute, admin } = await disputed();
    const other = await person({ role: 'admin' });
    const answers = await Promise.all([
      post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'refund' }),
      post(other, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'release' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const lost = answers.find((a) => a.status === 409)!;
    expect(lost.body).toMatchObject({ message: DISPUTE_MESSAGES.alreadyResolved });
    // Exactly one of the two moved the money.
    expect((await available(customer)) + (await available(seller))).toBe(answers[0]!.status === 200 ? PRICE : 85_000);
    await expectLedgerClean();
  });

  it('refuses bad decisions by field: no percent for a split, a percent out of range', async () => {
    const { dispute, admin } = await disputed();
    const noPercent = await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'split' });
    expect(noPercent).toMatchObject({ status: 400, body: { errors: { seller_percent: [DISPUTE_MESSAGES.percentRequired] } } });
    expect((await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'split', seller_percent: 101 })).status).toBe(400);
    expect((await post(admin, `/api/admin/disputes/${dispute._id}/resolve`, { outcome: 'split', seller_percent: 12.5 })).status).toBe(400);
    expect((await get<Dispute>(admin, `/api/admin/disputes/${dispute._id}`)).body.result.status).toBe('open');
  });
});

describe('a lost dispute and the seller level', () => {
  it('keeps a seller out of Профессионал for 90 days, in the listing filter and on the profile', async () => {
    const seller = await person({ role: 'seller' });
    await createService(server.db, seller.user.id, { price: PRICE, days: 3, revisions: 1 });
    const pros = async () => {
      const res = await get<{ _id: string; level: string }[]>(null, '/api/freelancers', { level: 'pro', limit: '50' });
      return res.body.result.map((p) => p._id);
    };
    const levelOf = async () => (await get<{ level: string }>(null, `/api/users/${seller.user.id}`)).body.result.level;
    const lostAgo = (days: number) =>
      server.db.update(users).set({ completedOrders: 60, rating: 480, lostDisputeAt: new Date(Date.now() - days * DAY) }).where(eq(users.id, seller.user.id));
    await lostAgo(10);
    expect(await pros()).not.toContain(seller.user.id);
    expect(await levelOf()).toBe('advanced');
    await lostAgo(100);
    expect(await pros()).toContain(seller.user.id);
    expect(await levelOf()).toBe('pro');
  });
});

describe('the admin queue', () => {
  it('flags a dispute with no decision after disputes.flagDays, finds by order number, and lets an admin take it', async () => {
    const { customer, order } = await paidOrder();
    const admin = await person({ role: 'admin' });
    const dispute = (await open(customer, order._id)).body.result;
    const flagged = async () => (await get<AdminDisputeRow[]>(admin, '/api/admin/disputes', { flagged: 'true', limit: '50' })).body.result.map((d) => d._id);
    expect(await flagged()).not.toContain(dispute._id);
    clock.advance(7 * DAY);
    expect(await flagged()).toContain(dispute._id);
    const byNumber = await get<AdminDisputeRow[]>(admin, '/api/admin/disputes', { q: `№${order.number}` });
    expect(byNumber.body.result.map((d) => d._id)).toEqual([dispute._id]);
    expect(byNumber.body.result[0]).toMatchObject({ flagged: true, admin: null });

    const taken = await post(admin, `/api/admin/disputes/${dispute._id}/take`);
    expect(taken.status).toBe(200);
    expect(taken.body.result.admin?._id).toBe(admin.user.id);
    expect(taken.body.result.chat.members.map((m) => m._id)).toContain(admin.user.id);
    // The admin writes in the dispute's chat like any member; never the respondent.
    expect((await post(admin, '/api/messages/', { chat_id: dispute.chat._id, message: 'Здравствуйте, я арбитр.' })).status).toBe(200);
    expect(taken.body.result.respondent._id).not.toBe(admin.user.id);
    expect(await server.app.services.disputes.countOpen()).toBeGreaterThanOrEqual(1);

    // Keyset pages walk the whole queue once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const pageAnswer: Awaited<ReturnType<typeof get<AdminDisputeRow[]>>> = await get<AdminDisputeRow[]>(admin, '/api/admin/disputes', cursor ? { limit: '2', cursor } : { limit: '2' });
      seen.push(...pageAnswer.body.result.map((d) => d._id));
      cursor = (pageAnswer.body as unknown as { next: string | null }).next;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe((await get<AdminDisputeRow[]>(admin, '/api/admin/disputes')).body.total);
  });
});
