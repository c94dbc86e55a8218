import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { chats, messages } from '../chat/schema.ts';
import { services } from '../services/schema.ts';
import { files } from '../files/schema.ts';
import { orders } from './schema.ts';
import { outbox } from '../../platform/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { balanceOf, balancesOf, checkLedger } from '../ledger/index.ts';
import { payOrderForTest } from './testing.ts';
import { ORDER_MESSAGES, type OrderDetail, type Order } from '#contract/orders';
import type { Chat } from '#contract/chat';

const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const server = useTestApp({}, { dispatch: false, clock });

const person = server.person;

const MIN = 60_000;
const DAY = 86_400_000;

async function party() {
  const seller = await person({ role: 'seller' });
  const customer = await person();
  const service = await createService(server.db, seller.user.id, {
    price: 100_000,
    days: 3,
    revisions: 1,
    packages: [
      { kind: 'economy', price: 100_000, days: 3, revisions: 1, description: 'Эконом' },
      { kind: 'business', price: 400_000, days: 7, revisions: 3, description: 'Бизнес' },
    ],
    extras: [
      { title: 'Срочно', price: 50_000, days: 0 },
      { title: 'Исходники', price: 30_000, days: 1 },
    ],
  });
  return { seller, customer, service };
}

const post = <T = OrderDetail>(who: Person | null, url: string, body?: unknown) => call<T>(server.app, 'POST', url, { token: who?.token, body: body ?? {} });
const get = <T = OrderDetail>(who: Person | null, url: string, query?: Record<string, string>) => call<T>(server.app, 'GET', url, { token: who?.token, query });

async function ordered(customer: Person, serviceId: string, body: Record<string, unknown> = {}): Promise<OrderDetail> {
  const res = await post(customer, '/api/orders', { service_id: serviceId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

async function paidOrder(opts: { revisions?: number } = {}) {
  const p = await party();
  if (opts.revisions !== undefined) await server.db.update(services).set({ revisions: opts.revisions }).where(eq(services.id, p.service.id));
  const order = await ordered(p.customer, p.service.id);
  await payOrderForTest(server.app, order._id);
  return { ...p, order };
}

async function storedFile(owner: UserRow) {
  const path = `${owner.id}/${randomBytes(16).toString('hex')}.png`;
  await server.db.insert(files).values({ ownerId: owner.id, path, originalName: 'итог.png', mime: 'image/png', size: 1234 });
  return `/uploads/${path}`;
}

const systemMessages = async (orderId: string) => {
  const [chat] = await server.db.select().from(chats).where(eq(chats.orderId, orderId));
  return server.db.select().from(messages).where(eq(messages.chatId, chat!.id)).orderBy(messages.createdAt);
};

const expectLedgerClean = async () => expect((await checkLedger(server.db)).problems).toEqual([]);

describe('POST /api/orders', () => {
  it('prices a package with extras and answers the order awaiting payment', async () => {
    const { seller, customer, service } = await party();
    const order = await ordered(customer, service.id, { package: 'business', extras: [1, 0] });
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      price: 400_000 + 50_000 + 30_000,
      days: 7 + 1,
      revisions_total: 3,
      revisions_left: 3,
      package: 'business',
      commission: 72_000,
      role: 'customer',
      actions: ['pay', 'cancel'],
      customer: { _id: customer.user.id },
      seller: { _id: seller.user.id },
    });
    expect(order.extras.map((e) => e.title)).toEqual(['Срочно', 'Исходники']);
    // The title names the package once.
    expect(order.title).toBe(`${service.title} (Бизнес)`);
  });

  it('tells the seller nothing of an unpaid order: no chat, letter, notification, live event or listing; all of it once paid', async () => {
    const { seller, customer, service } = await party();
    const before = (await server.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id);
    const order = await ordered(customer, service.id, { extras: [0] });
    expect(order.chat_id).toBeNull();
    expect(await server.db.select().from(chats).where(eq(chats.orderId, order._id))).toEqual([]);
    const queued = (await server.db.select().from(outbox)).filter((r) => !before.includes(r.id));
    const toSeller = (r: (typeof queued)[number]) =>
      (r.kind === 'letter' && (r.payload as { to: string }).to === seller.user.email) ||
      (r.kind === 'socket' && (r.payload as { userIds: string[] }).userIds.includes(seller.user.id));
    expect(queued.filter(toSeller)).toEqual([]);
    expect(queued.some((r) => r.kind === 'socket' && r.name === 'order_updated')).toBe(true);
    expect(await server.db.select().from(notifications).where(eq(notifications.userId, seller.user.id))).toEqual([]);
    // The seller does not learn it exists: not in their list, and 404 as for an unknown order.
    expect((await get<Order[]>(seller, '/api/orders', { role: 'selling' })).body.result).toEqual([]);
    expect((await get(seller, `/api/orders/${order._id}`)).status).toBe(404);
    expect((await post(seller, `/api/orders/${order._id}/cancel`)).status).toBe(404);

    await payOrderForTest(server.app, order._id);
    const paid = (await get(seller, `/api/orders/${order._id}`)).body.result;
    expect(paid).toMatchObject({ status: 'in_progress', role: 'seller', chat_id: expect.any(String) });
    expect((await get<Order[]>(seller, '/api/orders', { role: 'selling' })).body.result.map((o) => o._id)).toEqual([order._id]);
    expect((await systemMessages(order._id)).map((m) => m.message)).toEqual([expect.stringMatching(/^Заказ оплачен, деньги зарезервированы/)]);
    const [notice] = await server.db.select().from(notifications).where(eq(notifications.userId, seller.user.id));
    expect(notice!.text).toBe(`Новый заказ №${order.number} «${order.title}» оплачен — можно приступать`);
    const letters = (await server.db.select().from(outbox)).filter((r) => r.kind === 'letter' && (r.payload as { to: string }).to === seller.user.email);
    expect(letters.map((r) => (r.payload as { letter: { subject: string } }).letter.subject)).toEqual([expect.stringMatching(new RegExp(`^Новый заказ №${order.number}`))]);
  });

  it('gives the same choice its draft back, however many clicks; the cap never refuses it', async () => {
    const { customer, service } = await party();
    const clicks = await Promise.all(Array.from({ length: 5 }, () => post(customer, '/api/orders', { service_id: service.id, package: 'economy', extras: [1, 0] })));
    expect(new Set(clicks.map((c) => c.status))).toEqual(new Set([200]));
    const ids = new Set(clicks.map((c) => c.body.result._id));
    expect(ids.size).toBe(1);
    const [first] = ids;
    // The extras in another order are the same choice; another choice is another draft.
    expect((await ordered(customer, service.id, { package: 'economy', extras: [0, 1] }))._id).toBe(first);
    const other = await ordered(customer, service.id, { package: 'economy', extras: [0] });
    expect(other._id).not.toBe(first);
    // At the cap, the customer still gets their drafts back; only a new one is refused.
    await server.db.insert(orders).values(
      Array.from({ length: 30 }, () => ({ customerId: customer.user.id, sellerId: service.sellerId, title: 'Заказ', price: 100_000, days: 1, revisionsLeft: 0, revisionsTotal: 0, commissionBp: 1500, createdAt: clock.now() })),
    );
    expect((await ordered(customer, service.id, { package: 'economy', extras: [0, 1] }))._id).toBe(first);
    expect((await post(customer, '/api/orders', { service_id: service.id, package: 'business' })).status).toBe(429);
    // Paid, it is no draft any more: the same choice makes a new one.
    await payOrderForTest(server.app, first!);
    clock.advance(61 * MIN);
    expect((await ordered(customer, service.id, { package: 'economy', extras: [0, 1] }))._id).not.toBe(first);
    expect((await server.db.select().from(orders).where(eq(orders.customerId, customer.user.id))).filter((o) => o.serviceId === service.id)).toHaveLength(3);
  });

  it('uses the base offer without a package', async () => {
    const { customer, service } = await party();
    const order = await ordered(customer, service.id);
    expect(order).toMatchObject({ price: 100_000, days: 3, revisions_total: 1, package: null });
  });

  it('refuses the seller, an unknown package or extra, an inactive service, an unconfirmed customer', async () => {
    const { seller, customer, service } = await party();
    expect((await post(seller, '/api/orders', { service_id: service.id })).status).toBe(403);
    const noStandard = await post(customer, '/api/orders', { service_id: service.id, package: 'standard' });
    expect(noStandard.status).toBe(400);
    expect(noStandard.body.message).toBe(ORDER_MESSAGES.noSuchPackage);
    expect((await post(customer, '/api/orders', { service_id: service.id, extras: [5] })).status).toBe(400);
    expect((await post(customer, '/api/orders', { service_id: service.id, extras: [-1] })).status).toBe(400);
    const paused = await createService(server.db, seller.user.id, { status: 'paused' });
    expect((await post(customer, '/api/orders', { service_id: paused.id })).status).toBe(404);
    const unconfirmed = await person({ emailConfirmedAt: null });
    expect((await post(unconfirmed, '/api/orders', { service_id: service.id })).status).toBe(403);
    expect((await post(null, '/api/orders', { service_id: service.id })).status).toBe(401);
  });

  it('caps the unpaid orders a customer opens per hour', async () => {
    const { customer, service } = await party();
    await server.db.insert(orders).values(
      Array.from({ length: 30 }, () => ({
        customerId: customer.user.id,
        sellerId: service.sellerId,
        title: 'Заказ',
        price: 100_000,
        days: 1,
        revisionsLeft: 0,
        revisionsTotal: 0,
        commissionBp: 1500,
        createdAt: clock.now(),
      })),
    );
    const res = await post(customer, '/api/orders', { service_id: service.id });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(ORDER_MESSAGES.tooMany);
    clock.advance(61 * MIN);
    expect((await post(customer, '/api/orders', { service_id: service.id })).status).toBe(200);
  });
});

describe('reading orders', () => {
  it('shows an order to its parties and admins, 404 to strangers; lists by role and status in keyset pages', async () => {
    const { seller, customer, service } = await party();
    const first = await ordered(customer, service.id);
    clock.advance(1000);
    const second = await ordered(customer, service.id, { extras: [0] });
    await payOrderForTest(server.app, second._id);
    const stranger = await person();
    const admin = await person({ role: 'admin' });
    expect((await get(stranger, `/api/orders/${first._id}`)).status).toBe(404);
    expect((await get(null, `/api/orders/${first._id}`)).status).toBe(401);
    // The unpaid one is the customer's alone (ADR 042); the paid one the seller's too.
    expect((await get(seller, `/api/orders/${first._id}`)).status).toBe(404);
    expect((await get(seller, `/api/orders/${second._id}`)).body.result.role).toBe('seller');
    expect((await get(admin, `/api/orders/${first._id}`)).body.result).toMatchObject({ role: null, actions: [] });
    expect((await get(customer, `/api/orders/not-a-uuid`)).status).toBe(400);

    const buying = await get<Order[]>(customer, '/api/orders', { role: 'buying', limit: '1' });
    expect(buying.body.result.map((o) => o._id)).toEqual([second._id]);
    const next = (buying.body as unknown as { next: string }).next;
    const page2 = await get<Order[]>(customer, '/api/orders', { role: 'buying', limit: '1', cursor: next });
    expect(page2.body.result.map((o) => o._id)).toEqual([first._id]);
    expect((await get<Order[]>(customer, '/api/orders', { role: 'selling' })).body.result).toEqual([]);
    const selling = await get<Order[]>(seller, '/api/orders', { role: 'selling', status: 'in_progress' });
    expect(selling.body.result.map((o) => o._id)).toEqual([second._id]);
    expect((await get(customer, '/api/orders', { cursor: 'garbage!' })).status).toBe(400);

    // The admin area: by number, by title, by status.
    const byNumber = await get<Order[]>(admin, '/api/admin/orders', { q: `№${second.number}` });
    expect(byNumber.body.result.map((o) => o._id)).toEqual([second._id]);
    // With "№": bare digits also find titles that contain them, and the factories' titles end with "#<n>".
    const byStatus = await get<Order[]>(admin, '/api/admin/orders', { status: 'in_progress', q: `№${second.number}` });
    expect(byStatus.body.result).toHaveLength(1);
    expect((await get(admin, `/api/admin/orders/${first._id}`)).status).toBe(200);
    expect((await get(customer, '/api/admin/orders')).status).toBe(403);
  });

  it('answers each shape of a list (role, tab, search, page after a cursor) with its own rows and total', async () => {
    const { seller, customer, service } = await party();
    const admin = await person({ role: 'admin' });
    // Other terms than the paid ones: «Заказать» with the same terms would give this draft back (ADR 042).
    const draft = await ordered(customer, service.id, { extras: [0] });
    const paid: OrderDetail[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      paid.push(await ordered(customer, service.id));
      await payOrderForTest(server.app, paid[i]!._id);
    }
    // A title search takes `%` and `_` as themselves: "50%" does not find "500".
    const tag = randomBytes(6).toString('hex');
    await server.db.update(orders).set({ title: `Скидка 50% ${tag}` }).where(eq(orders.id, paid[0]!._id));
    await server.db.update(orders).set({ title: `Скидка 500 ${tag}` }).where(eq(orders.id, paid[1]!._id));
    type Listed = { result: Order[]; total: number; next: string | null };
    const list = async (who: Person, url: string, query: Record<string, string>) => {
      const res = await get<Order[]>(who, url, query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as unknown as Listed;
      return { ids: body.result.map((o) => o._id), total: body.total, next: body.next };
    };
    const [p0, p1, p2] = paid.map((o) => o._id);

    const buying = await list(customer, '/api/orders', { role: 'buying', limit: '2' });
    expect(buying).toMatchObject({ ids: [p2, p1], total: 4 });
    expect(await list(customer, '/api/orders', { role: 'buying', limit: '2', cursor: buying.next! })).toEqual({ ids: [p0, draft._id], total: 4, next: null });
    expect(await list(customer, '/api/orders', { role: 'buying', status: 'awaiting_payment' })).toMatchObject({ ids: [draft._id], total: 1 });
    // The seller does not know of the draft (ADR 042).
    const selling = await list(seller, '/api/orders', { role: 'selling', limit: '2' });
    expect(selling).toMatchObject({ ids: [p2, p1], total: 3 });
    expect(await list(seller, '/api/orders', { role: 'selling', limit: '2', cursor: selling.next! })).toEqual({ ids: [p0], total: 3, next: null });
    const tab = await list(seller, '/api/orders', { role: 'selling', status: 'in_progress', limit: '1' });
    expect(tab).toMatchObject({ ids: [p2], total: 3 });
    expect(await list(seller, '/api/orders', { role: 'selling', status: 'in_progress', limit: '1', cursor: tab.next! })).toMatchObject({ ids: [p1], total: 3 });
    expect(await list(customer, '/api/orders', { role: 'selling' })).toEqual({ ids: [], total: 0, next: null });

    expect(await list(admin, '/api/admin/orders', { q: `50% ${tag}` })).toEqual({ ids: [p0], total: 1, next: null });
    const titled = await list(admin, '/api/admin/orders', { q: tag, limit: '1' });
    expect(titled).toMatchObject({ ids: [p1], total: 2 });
    expect(await list(admin, '/api/admin/orders', { q: tag, limit: '1', cursor: titled.next! })).toEqual({ ids: [p0], total: 2, next: null });
    expect(await list(admin, '/api/admin/orders', { q: tag, status: 'completed' })).toEqual({ ids: [], total: 0, next: null });
    expect(await list(admin, '/api/admin/orders', { q: `№${paid[1]!.number}`, status: 'in_progress' })).toEqual({ ids: [p1], total: 1, next: null });
    expect(await list(admin, '/api/admin/orders', { q: `№${draft.number}`, status: 'awaiting_payment' })).toEqual({ ids: [draft._id], total: 1, next: null });
  });

  it("gives order chats their order card with each member's actions", async () => {
    const { seller, customer, order } = await paidOrder();
    const chatsOf = async (who: Person) => (await get<Chat[]>(who, '/api/chat/my_by_order')).body.result.find((c) => c.order?._id === order._id)!;
    const forCustomer = await chatsOf(customer);
    expect(forCustomer.order).toMatchObject({ number: order.number, title: order.title, status: 'in_progress', price: 100_000, role: 'customer' });
    expect(forCustomer.order!.deadline_at).toBe(new Date(clock.now().getTime() + 3 * DAY).toISOString());
    expect(forCustomer.order!.actions).toEqual(['cancel', 'propose_cancel']);
    expect((await chatsOf(seller)).order!.actions).toEqual(['deliver', 'cancel', 'propose_cancel']);
  });
});

describe('announcements', () => {
  it("fans a transition's system message out as new_message with the order card, and order_updated to both, after the commit", async () => {
    const { seller, customer, order } = await paidOrder();
    await server.app.services.platform.dispatcher.runDue();
    await server.app.services.chat.idle();
    const emit = vi.spyOn(server.app.services.realtime, 'emitToUsers');
    try {
      await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' });
      // Nothing leaves before the outbox is run.
      expect(emit).not.toHaveBeenCalled();
      await server.app.services.platform.dispatcher.runDue();
      await server.app.services.chat.idle();
      const calls = emit.mock.calls as unknown as [string[], string, Record<string, never>][];
      const newMessages = calls.filter((c) => c[1] === 'new_message');
      expect(newMessages.map((c) => c[0][0]).sort()).toEqual([customer.user.id, seller.user.id].sort());
      const toCustomer = newMessages.find((c) => c[0][0] === customer.user.id)![2] as unknown as Record<string, Record<string, unknown>>;
      expect(toCustomer.newMessage).toMatchObject({ kind: 'delivery', message: 'Работа сдана.\n\nГотово' });
      expect(toCustomer.chat!.order).toMatchObject({ _id: order._id, status: 'delivered', role: 'customer', actions: ['accept', 'revision', 'propose_cancel'] });
      expect(calls.some((c) => c[1] === 'get_counters' && c[0][0] === customer.user.id)).toBe(true);
      const updated = calls.filter((c) => c[1] === 'order_updated');
      expect(updated).toHaveLength(1);
      expect(updated[0]![0].sort()).toEqual([customer.user.id, seller.user.id].sort());
      expect(updated[0]![2]).toEqual({ _id: order._id, number: order.number, status: 'delivered' });
    } finally {
      emit.mockRestore();
    }
  });
});

describe('the lifecycle', () => {
  it('deliver → revision → deliver → accept settles the escrow, pays the seller, counts the order', async () => {
    const { seller, customer, service, order } = await paidOrder({ revisions: 1 });
    expect((await get(customer, `/api/orders/${order._id}`)).body.result).toMatchObject({ status: 'in_progress', actions: ['cancel', 'propose_cancel'] });
    // Past the customer's window of cancellation.
    clock.advance(30 * 60_000);
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(100_000);

    // The wrong party is refused; a foreign file too.
    expect((await post(customer, `/api/orders/${order._id}/deliver`, { message: 'Готово' })).status).toBe(403);
    expect((await post(seller, `/api/orders/${order._id}/accept`)).status).toBe(403);
    expect((await post(customer, `/api/orders/${order._id}/accept`)).status).toBe(409);
    const foreign = await storedFile(customer.user);
    expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово', files: [foreign] })).status).toBe(403);
    expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: '' })).status).toBe(400);

    const file = await storedFile(seller.user);
    const delivered = await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово, смотрите файлы', files: [file] });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    expect(delivered.body.result).toMatchObject({ status: 'delivered', actions: ['cancel', 'propose_cancel'] });
    expect(delivered.body.result.deliveries[0]).toMatchObject({ message: 'Готово, смотрите файлы' });
    expect(delivered.body.result.deliveries[0]!.files).toHaveLength(1);
    const afterDelivery = await systemMessages(order._id);
    expect(afterDelivery.at(-1)).toMatchObject({ kind: 'delivery', files: [file], senderId: seller.user.id });
    expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Ещё раз' })).status).toBe(409);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result.actions).toEqual(['accept', 'revision', 'propose_cancel']);

    const revised = await post(customer, `/api/orders/${order._id}/revision`, { message: 'Поправьте цвета' });
    expect(revised.body.result).toMatchObject({ status: 'in_progress', revisions_left: 0 });
    await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Поправил' });
    // Revisions exhausted.
    const exhausted = await post(customer, `/api/orders/${order._id}/revision`, { message: 'Ещё' });
    expect(exhausted.status).toBe(409);
    expect(exhausted.body.message).toBe(ORDER_MESSAGES.noRevisionsLeft);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result.actions).toEqual(['accept', 'propose_cancel']);

    const accepted = await post(customer, `/api/orders/${order._id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.result).toMatchObject({ status: 'completed', actions: [] });
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(0);
    expect((await balancesOf(server.db, seller.user.id)).available).toBe(85_000);
    expect((await balancesOf(server.db, customer.user.id)).available).toBe(0);
    expect(await balanceOf(server.db, { kind: 'revenue' })).toBeGreaterThanOrEqual(15_000);
    const [sellerRow] = await server.db.select().from(users).where(eq(users.id, seller.user.id));
    expect(sellerRow!.completedOrders).toBe(1);
    const [serviceRow] = await server.db.select().from(services).where(eq(services.id, service.id));
    expect(serviceRow).toMatchObject({ ordersCount: 1, popularity: service.popularity + 20 });
    // Settled once: a second accept or a cancel is refused.
    expect((await post(customer, `/api/orders/${order._id}/accept`)).status).toBe(409);
    expect((await post(seller, `/api/orders/${order._id}/cancel`)).status).toBe(409);
    const kinds = (await systemMessages(order._id)).map((m) => m.kind);
    // The chat opened when the order was paid: its first message says so.
    expect(kinds).toEqual(['system', 'delivery', 'system', 'delivery', 'system']);
    await expectLedgerClean();
  });

  it('pays referral rewards within referrals.months of registration, capped by the commission', async () => {
    const buyersReferrer = await person();
    const sellersReferrer = await person();
    const { seller, customer, service } = await party();
    await server.db.update(users).set({ referredBy: buyersReferrer.user.id, createdAt: new Date(clock.now().getTime() - 30 * DAY) }).where(eq(users.id, customer.user.id));
    // The seller registered 13 months ago: no reward for their referrer.
    await server.db.update(users).set({ referredBy: sellersReferrer.user.id, createdAt: new Date(clock.now().getTime() - 400 * DAY) }).where(eq(users.id, seller.user.id));
    const revenueBefore = await balanceOf(server.db, { kind: 'revenue' });
    const order = await ordered(customer, service.id);
    await payOrderForTest(server.app, order._id);
    await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' });
    await post(customer, `/api/orders/${order._id}/accept`);
    expect((await balancesOf(server.db, buyersReferrer.user.id)).available).toBe(3_500);
    expect((await balancesOf(server.db, sellersReferrer.user.id)).available).toBe(0);
    expect((await balancesOf(server.db, seller.user.id)).available).toBe(85_000);
    expect((await balanceOf(server.db, { kind: 'revenue' })) - revenueBefore).toBe(15_000 - 3_500);

    // Both within the months, and a commission smaller than the rewards: R is capped at C.
    await server.db.update(users).set({ createdAt: new Date(clock.now().getTime() - DAY) }).where(eq(users.id, seller.user.id));
    const cheap = await ordered(customer, service.id);
    await server.db.update(orders).set({ commissionBp: 400 }).where(eq(orders.id, cheap._id));
    await payOrderForTest(server.app, cheap._id);
    await post(seller, `/api/orders/${cheap._id}/deliver`, { message: 'Готово' });
    const revenue2 = await balanceOf(server.db, { kind: 'revenue' });
    await post(customer, `/api/orders/${cheap._id}/accept`);
    // C = 4 000; buyer's 3 500, seller's referrer gets what is left: 500.
    expect((await balancesOf(server.db, buyersReferrer.user.id)).available).toBe(7_000);
    expect((await balancesOf(server.db, sellersReferrer.user.id)).available).toBe(500);
    expect(await balanceOf(server.db, { kind: 'revenue' })).toBe(revenue2);
    expect((await balancesOf(server.db, seller.user.id)).available).toBe(85_000 + 96_000);
    await expectLedgerClean();
  });
});

describe('cancellation', () => {
  it('lets the customer cancel an unpaid order with no money moved', async () => {
    const { customer, service, seller } = await party();
    const order = await ordered(customer, service.id);
    const res = await post(customer, `/api/orders/${order._id}/cancel`, { reason: 'Передумал' });
    expect(res.body.result).toMatchObject({ status: 'cancelled', cancel_reason: 'Передумал', cancelled_by: customer.user.id });
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(0);
    // The seller never learnt of it.
    expect((await post(seller, `/api/orders/${order._id}/cancel`)).status).toBe(404);
    // A cancelled order cannot be paid any more.
    await expect(payOrderForTest(server.app, order._id)).rejects.toThrow();
  });

  it('lets the customer cancel within the window after payment, refunding the escrow', async () => {
    const { customer, order } = await paidOrder();
    clock.advance(19 * MIN);
    const res = await post(customer, `/api/orders/${order._id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.result.status).toBe('cancelled');
    expect(await balanceOf(server.db, { kind: 'escrow', orderId: order._id })).toBe(0);
    expect((await balancesOf(server.db, customer.user.id)).available).toBe(100_000);
    await expectLedgerClean();
  });

  it('refuses the customer between the window and the deadline; allows after the deadline; the seller any time', async () => {
    const { customer, order } = await paidOrder();
    clock.advance(21 * MIN);
    const late = await post(customer, `/api/orders/${order._id}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(ORDER_MESSAGES.cancelLater);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result.actions).not.toContain('cancel');
    clock.advance(3 * DAY);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result.actions).toContain('cancel');
    expect((await post(customer, `/api/orders/${order._id}/cancel`)).body.result.status).toBe('cancelled');
    expect((await balancesOf(server.db, customer.user.id)).available).toBe(100_000);

    const other = await paidOrder();
    clock.advance(DAY);
    const bySeller = await post(other.seller, `/api/orders/${other.order._id}/cancel`, { reason: 'Не успеваю' });
    expect(bySeller.body.result.status).toBe('cancelled');
    expect((await balancesOf(server.db, other.customer.user.id)).available).toBe(100_000);
    const stranger = await person();
    expect((await post(stranger, `/api/orders/${other.order._id}/cancel`)).status).toBe(404);
    await expectLedgerClean();
  });

  it('runs the proposal: the other party declines (cleared) or accepts (cancelled, refunded)', async () => {
    const { seller, customer, order } = await paidOrder();
    clock.advance(30 * MIN);
    expect((await post(seller, `/api/orders/${order._id}/cancel-proposal/answer`, { accept: true })).status).toBe(409);
    const proposed = await post(seller, `/api/orders/${order._id}/cancel-proposal`, { reason: 'Заболел' });
    expect(proposed.body.result.cancel_proposal).toMatchObject({ by: seller.user.id, reason: 'Заболел' });
    expect((await post(customer, `/api/orders/${order._id}/cancel-proposal`, { reason: 'И я' })).status).toBe(409);
    expect((await post(seller, `/api/orders/${order._id}/cancel-proposal/answer`, { accept: true })).status).toBe(403);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result.actions).toContain('answer_cancel');
    const declined = await post(customer, `/api/orders/${order._id}/cancel-proposal/answer`, { accept: false });
    expect(declined.body.result).toMatchObject({ status: 'in_progress', cancel_proposal: null });

    await post(customer, `/api/orders/${order._id}/cancel-proposal`, { reason: 'Не нужно больше' });
    const accepted = await post(seller, `/api/orders/${order._id}/cancel-proposal/answer`, { accept: true });
    expect(accepted.body.result).toMatchObject({ status: 'cancelled', cancelled_by: customer.user.id, cancel_reason: 'Не нужно больше' });
    expect((await balancesOf(server.db, customer.user.id)).available).toBe(100_000);
    await expectLedgerClean();
  });
});

describe('drafts expire', () => {
  const runJobs = () => server.app.services.platform.dispatcher.runDue();
  const statusOf = async (id: string) => (await server.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it('cancels an unpaid order quietly after orders.draftHours; a paid one, or a longer period set meanwhile, waits', async () => {
    const { customer, service } = await party();
    const admin = await person({ role: 'admin' });
    const order = await ordered(customer, service.id);
    const paid = await ordered(customer, service.id, { extras: [0] });
    await payOrderForTest(server.app, paid._id);
    const [job] = await server.db.select().from(outbox).where(eq(outbox.dedupeKey, `expire-draft:${order._id}`));
    expect(job!.dueAt.getTime()).toBe(clock.now().getTime() + 48 * 3_600_000);

    // The operator makes it 72 hours: at 48 the job only moves itself.
    await server.app.services.settings.update(admin.user, { 'orders.draftHours': 72 });
    clock.advance(48 * 3_600_000 + MIN);
    await runJobs();
    expect((await statusOf(order._id)).status).toBe('awaiting_payment');
    clock.advance(24 * 3_600_000);
    const before = (await server.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id);
    await runJobs();
    const expired = await statusOf(order._id);
    expect(expired).toMatchObject({ status: 'cancelled', cancelledBy: null, cancelReason: ORDER_MESSAGES.draftExpired });
    // No letter and no notification to anyone.
    const queued = (await server.db.select().from(outbox)).filter((r) => !before.includes(r.id));
    expect(queued.filter((r) => r.kind === 'letter')).toEqual([]);
    expect(await server.db.select().from(notifications).where(eq(notifications.userId, customer.user.id))).toEqual([]);
    expect((await get(customer, `/api/orders/${order._id}`)).body.result).toMatchObject({ status: 'cancelled', cancel_reason: ORDER_MESSAGES.draftExpired, actions: [] });
    expect((await statusOf(paid._id)).status).toBe('in_progress');
    await server.app.services.settings.update(admin.user, { 'orders.draftHours': 48 });
  });
});

describe('auto-accept', () => {
  const runJobs = () => server.app.services.platform.dispatcher.runDue();

  it('completes a delivered order autoAcceptDays after the delivery', async () => {
    const { seller, order } = await paidOrder();
    await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' });
    const [job] = await server.db.select().from(outbox).where(eq(outbox.dedupeKey, `auto-accept:${order._id}`));
    expect(job!.dueAt.getTime()).toBe(clock.now().getTime() + 3 * DAY);
    clock.advance(3 * DAY - MIN);
    await runJobs();
    expect((await server.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('delivered');
    clock.advance(2 * MIN);
    await runJobs();
    expect((await server.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('completed');
    expect((await balancesOf(server.db, seller.user.id)).available).toBe(85_000);
    await expectLedgerClean();
  });

  it('does nothing after a revision, and waits for the latest delivery', async () => {
    const { seller, customer, order } = await paidOrder({ revisions: 2 });
    await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' });
    clock.advance(DAY);
    await post(customer, `/api/orders/${order._id}/revision`, { message: 'Поправьте' });
    clock.advance(DAY);
    await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Поправил' });
    // The first delivery's job runs: the order was delivered again one day ago, so it only moves itself.
    clock.advance(DAY + MIN);
    await runJobs();
    expect((await server.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('delivered');
    const [moved] = await server.db.select().from(outbox).where(and(eq(outbox.dedupeKey, `auto-accept:${order._id}`), eq(outbox.state, 'pending')));
    expect(moved).toBeTruthy();
    clock.advance(2 * DAY);
    await runJobs();
    expect((await server.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.status).toBe('completed');

    // A revision left pending: the job is a no-op.
    const again = await paidOrder({ revisions: 2 });
    await post(again.seller, `/api/orders/${again.order._id}/deliver`, { message: 'Готово' });
    await post(again.customer, `/api/orders/${again.order._id}/revision`, { message: 'Поправьте' });
    clock.advance(4 * DAY);
    await runJobs();
    expect((await server.db.select().from(orders).where(eq(orders.id, again.order._id)))[0]!.status).toBe('in_progress');
    await expectLedgerClean();
  });
});
