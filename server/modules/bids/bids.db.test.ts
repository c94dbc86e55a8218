import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { call, randomAddress } from '../../test/api.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { bids } from './schema.ts';
import { orders } from '../orders/schema.ts';
import { projects } from '../projects/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { chats } from '../chat/schema.ts';
import { outbox } from '../../platform/schema.ts';
import type { Db } from '../../db/client.ts';
import { BID_MESSAGES, type Bid } from '#contract/bids';
import { BID_ORDER_REVISIONS } from './service.ts';

// Bids (PRODUCT.md "Bids", ADR 025): every rule over HTTP.

let test: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let db: Db;
let admin: Person;

interface Person {
  user: UserRow;
  token: string;
}

const input = (overrides: Record<string, unknown> = {}) => ({
  price: 1_500_000,
  days: 7,
  comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
  ...overrides,
});
/** The terms a customer saw, as the accept button sends them. */
const terms = (bid: Pick<Bid, 'price' | 'days'>) => ({ price: bid.price, days: bid.days });

async function person(overrides: UserOverrides = {}): Promise<Person> {
  const user = await createUser(db, { role: 'seller', roles: ['customer', 'seller'], ...overrides });
  return { user, token: await app.services.tokens.sign(user) };
}
const customer = () => person({ role: 'customer' });

const place = (who: Person, projectId: string, body: unknown = input()) =>
  call<Bid>(app, 'POST', `/api/projects/${projectId}/bids`, { token: who.token, body, remoteAddress: randomAddress() });

async function projectOf(owner: Person, overrides: Parameters<typeof createProject>[2] = {}) {
  return (await createProject(db, owner.user.id, overrides)).id;
}

async function setSetting(patch: Record<string, number>) {
  await app.services.settings.update(admin.user, patch);
}

async function outboxOf(name: string) {
  return db.select().from(outbox).where(eq(outbox.name, name)).orderBy(outbox.id);
}

beforeAll(async () => {
  // No dispatcher: the outbox rows stay for the assertions.
  test = await createTestApp({}, { dispatch: false });
  app = test.app;
  db = test.database.db;
  admin = await person({ role: 'customer', roles: ['customer', 'admin'] });
}, 60_000);

afterAll(async () => {
  await test?.close();
});

describe('placing a bid', () => {
  it('a seller bids: 200, the project counts it, the customer’s flag goes up with a socket event and a letter', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const res = await place(seller, projectId);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ price: 1_500_000, days: 7, status: 'active', project_id: projectId });
    expect(res.body.result.seller._id).toBe(seller.user.id);
    expect(res.body.result.project).toMatchObject({ _id: projectId, category: 'development' });

    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    expect(project!.bidsCount).toBe(1);
    const flag = await call<{ hasUnread: boolean }>(app, 'GET', '/api/notifications/bids/flag', { token: owner.token });
    expect(flag.body.result.hasUnread).toBe(true);
    const events = await outboxOf('bids_flag');
    expect(events.some((e) => JSON.stringify(e.payload).includes(owner.user.id) && JSON.stringify(e.payload).includes('true'))).toBe(true);
    const letters = await db.select().from(outbox).where(and(eq(outbox.kind, 'letter'), sql`${outbox.payload}::text like ${`%${owner.user.email}%`}`));
    expect(letters.length).toBe(1);
    expect(JSON.stringify(letters[0]!.payload)).toContain('Новый отклик');
  });

  it('refuses the project’s own customer, a member in customer mode, a closed project and an unknown one', async () => {
    const owner = await person();
    const projectId = await projectOf(owner);
    expect((await place(owner, projectId)).body.message).toBe(BID_MESSAGES.ownProject);
    const buyer = await customer();
    const asCustomer = await place(buyer, projectId);
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.message).toBe(BID_MESSAGES.sellersOnly);
    const seller = await person();
    const done = await projectOf(owner, { status: 'in_progress' });
    const closed = await place(seller, done);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe(BID_MESSAGES.closed);
    const archived = await projectOf(owner, { status: 'archived' });
    expect((await place(seller, archived)).status).toBe(404);
    expect((await place(seller, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const unconfirmed = await person({ emailConfirmedAt: null });
    expect((await place(unconfirmed, projectId)).status).toBe(403);
  });

  it('checks the comment against settings bids.minComment, and the price and days ranges', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const short = await place(seller, projectId, input({ comment: 'Сделаю быстро и хорошо' }));
    expect(short.status).toBe(400);
    expect(short.body.errors?.comment).toEqual([BID_MESSAGES.commentTooShort(30)]);
    await setSetting({ 'bids.minComment': 10 });
    try {
      expect((await place(seller, projectId, input({ comment: 'Сделаю быстро и хорошо' }))).status).toBe(200);
    } finally {
      await setSetting({ 'bids.minComment': 30 });
    }
    const other = await projectOf(owner);
    expect((await place(seller, other, input({ price: 49_999 }))).status).toBe(400);
    expect((await place(seller, other, input({ price: 100_000_001 }))).status).toBe(400);
    expect((await place(seller, other, input({ days: 0 }))).status).toBe(400);
    expect((await place(seller, other, input({ days: 366 }))).status).toBe(400);
    expect((await place(seller, other, input({ comment: 'я'.repeat(5001) }))).status).toBe(400);
  });

  it('one live bid per seller and project, even when two race; a withdrawn one may be placed again', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const answers = await Promise.all([place(seller, projectId), place(seller, projectId), place(seller, projectId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe(BID_MESSAGES.duplicate);
    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    expect(project!.bidsCount).toBe(1);

    const bid = answers.find((a) => a.status === 200)!.body.result;
    expect((await call(app, 'DELETE', `/api/bids/${bid._id}`, { token: seller.token })).status).toBe(200);
    expect((await place(seller, projectId)).status).toBe(200);
  });

  it('at most settings bids.perDay new bids a seller in 24 hours; older ones do not count', async () => {
    const owner = await customer();
    const seller = await person();
    // 30 bids of today (withdrawn ones count: a new bid is a new bid) and one of yesterday.
    const day = Date.now() - 24 * 60 * 60 * 1000;
    for (let i = 0; i < 31; i++) {
      const projectId = await projectOf(owner);
      await db.insert(bids).values({
        projectId,
        sellerId: seller.user.id,
        ...input(),
        status: i % 2 ? 'withdrawn' : 'active',
        createdAt: new Date(i === 0 ? day - 60_000 : Date.now() - i * 60_000),
      });
    }
    const projectId = await projectOf(owner);
    const refused = await place(seller, projectId);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(BID_MESSAGES.perDay(30));

    // One of today's moves past 24 hours: room for one more.
    await db.execute(sql`update bids set created_at = now() - interval '25 hours' where id = (select id from bids where seller_id = ${seller.user.id} order by created_at desc limit 1)`);
    expect((await place(seller, projectId)).status).toBe(200);
    expect((await place(seller, await projectOf(owner))).status).toBe(429);

    await setSetting({ 'bids.perDay': 100 });
    try {
      expect((await place(seller, await projectOf(owner))).status).toBe(200);
    } finally {
      await setSetting({ 'bids.perDay': 30 });
    }
  });
});

describe('editing and withdrawing', () => {
  it('the seller edits and withdraws an active bid while the project is active; nobody else may', async () => {
    const owner = await customer();
    const seller = await person();
    const stranger = await person();
    const projectId = await projectOf(owner);
    const bid = (await place(seller, projectId)).body.result;

    const edited = await call<Bid>(app, 'PUT', `/api/bids/${bid._id}`, { token: seller.token, body: input({ price: 2_000_000, days: 3 }) });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ price: 2_000_000, days: 3 });
    expect((await call(app, 'PUT', `/api/bids/${bid._id}`, { token: seller.token, body: input({ comment: 'коротко' }) })).status).toBe(400);
    expect((await call(app, 'PUT', `/api/bids/${bid._id}`, { token: owner.token, body: input() })).status).toBe(403);
    expect((await call(app, 'PUT', `/api/bids/${bid._id}`, { token: stranger.token, body: input() })).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/bids/${bid._id}`, { token: stranger.token })).status).toBe(404);

    const withdrawn = await call<Bid>(app, 'DELETE', `/api/bids/${bid._id}`, { token: seller.token });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.result.status).toBe('withdrawn');
    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    expect(project!.bidsCount).toBe(0);
    // A withdrawn bid is no longer active.
    const again = await call(app, 'PUT', `/api/bids/${bid._id}`, { token: seller.token, body: input() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(BID_MESSAGES.notActive);
    expect((await call(app, 'DELETE', `/api/bids/${bid._id}`, { token: seller.token })).status).toBe(409);
  });

  it('refuses edits once the project is no longer active', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const bid = (await place(seller, projectId)).body.result;
    await db.update(projects).set({ status: 'archived' }).where(eq(projects.id, projectId));
    const res = await call(app, 'PUT', `/api/bids/${bid._id}`, { token: seller.token, body: input() });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BID_MESSAGES.closed);
    expect((await call(app, 'DELETE', `/api/bids/${bid._id}`, { token: seller.token })).status).toBe(409);
  });
});

describe('reading bids', () => {
  it('the customer and admins list a project’s bids, newest first, in keyset pages; the seller sees only their own', async () => {
    const owner = await customer();
    const sellers = [await person(), await person(), await person()];
    const projectId = await projectOf(owner);
    for (const s of sellers) expect((await place(s, projectId)).status).toBe(200);

    const first = await call<Bid[]>(app, 'GET', `/api/projects/${projectId}/bids`, { token: owner.token, query: { limit: '2' } });
    expect(first.status).toBe(200);
    expect(first.body.result.map((b) => b.seller._id)).toEqual([sellers[2]!.user.id, sellers[1]!.user.id]);
    expect(first.body.total).toBe(3);
    const next = (first.body as unknown as { next: string }).next;
    const second = await call<Bid[]>(app, 'GET', `/api/projects/${projectId}/bids`, { token: owner.token, query: { limit: '2', cursor: next } });
    expect(second.body.result.map((b) => b.seller._id)).toEqual([sellers[0]!.user.id]);
    expect((second.body as unknown as { next: string | null }).next).toBeNull();
    expect((await call(app, 'GET', `/api/projects/${projectId}/bids`, { token: admin.token })).status).toBe(200);

    const asSeller = await call(app, 'GET', `/api/projects/${projectId}/bids`, { token: sellers[0]!.token });
    expect(asSeller.status).toBe(403);
    expect(asSeller.body.message).toBe(BID_MESSAGES.customerOnly);
    const archived = await projectOf(owner, { status: 'archived' });
    expect((await call(app, 'GET', `/api/projects/${archived}/bids`, { token: sellers[0]!.token })).status).toBe(404);

    const mine = await call<Bid | null>(app, 'GET', `/api/users/my_bid/${projectId}`, { token: sellers[1]!.token });
    expect(mine.body.result?.seller._id).toBe(sellers[1]!.user.id);
    const none = await call<Bid | null>(app, 'GET', `/api/users/my_bid/${projectId}`, { token: owner.token });
    expect(none.status).toBe(200);
    expect(none.body.result).toBeNull();
    // The person page is another route: /api/users/{id}.
    expect((await call(app, 'GET', `/api/users/${sellers[1]!.user.id}`)).status).toBe(200);
  });

  it('/api/bids/my lists the seller’s bids with a status filter; /api/bids/received the customer’s', async () => {
    const owner = await customer();
    const seller = await person();
    const a = await projectOf(owner);
    const b = await projectOf(owner);
    const bidA = (await place(seller, a)).body.result;
    await place(seller, b);
    await call(app, 'DELETE', `/api/bids/${bidA._id}`, { token: seller.token });

    const all = await call<Bid[]>(app, 'GET', '/api/bids/my', { token: seller.token });
    expect(all.body.result.map((x) => x.project_id)).toEqual([b, a]);
    const withdrawn = await call<Bid[]>(app, 'GET', '/api/bids/my', { token: seller.token, query: { status: 'withdrawn' } });
    expect(withdrawn.body.result.map((x) => x._id)).toEqual([bidA._id]);

    const received = await call<Bid[]>(app, 'GET', '/api/bids/received', { token: owner.token });
    expect(received.body.result.map((x) => x.project_id)).toEqual([b]);
    expect(received.body.result[0]!.project.title).toMatch(/лендинг/);
    expect((await call<Bid[]>(app, 'GET', '/api/bids/received', { token: seller.token })).body.result).toEqual([]);
  });
});

describe('the bids flag', () => {
  it('goes up on a new bid and down with PUT, which tells the customer’s other tabs', async () => {
    const owner = await customer();
    const seller = await person();
    const flag = () => call<{ hasUnread: boolean }>(app, 'GET', '/api/notifications/bids/flag', { token: owner.token });
    expect((await flag()).body.result.hasUnread).toBe(false);
    await place(seller, await projectOf(owner));
    expect((await flag()).body.result.hasUnread).toBe(true);
    const cleared = await call<{ hasUnread: boolean }>(app, 'PUT', '/api/notifications/bids/flag', { token: owner.token });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result.hasUnread).toBe(false);
    expect((await flag()).body.result.hasUnread).toBe(false);
    const [row] = await db.select({ unread: users.bidsUnread }).from(users).where(eq(users.id, owner.user.id));
    expect(row!.unread).toBe(false);
    const events = (await outboxOf('bids_flag')).filter((e) => JSON.stringify(e.payload).includes(owner.user.id));
    expect(events.map((e) => JSON.stringify(e.payload).includes('"hasUnread":false'))).toEqual([false, true]);
  });
});

describe('accepting a bid', () => {
  it('opens an order awaiting payment with the bid’s terms, rejects the others, moves the project to in_progress', async () => {
    const owner = await customer();
    const [chosen, other] = [await person(), await person()];
    const projectId = await projectOf(owner);
    const bid = (await place(chosen, projectId, input({ price: 2_500_000, days: 9 }))).body.result;
    const lost = (await place(other, projectId)).body.result;

    expect((await call(app, 'POST', `/api/bids/${bid._id}/accept`, { token: chosen.token, body: terms(bid) })).status).toBe(403);
    expect((await call(app, 'POST', `/api/bids/${bid._id}/accept`, { token: admin.token, body: terms(bid) })).status).toBe(403);
    const res = await call<{ order_id: string; chat_id: string }>(app, 'POST', `/api/bids/${bid._id}/accept`, { token: owner.token, body: terms(bid) });
    expect(res.status).toBe(200);
    const [order] = await db.select().from(orders).where(eq(orders.id, res.body.result.order_id));
    expect(order).toMatchObject({
      customerId: owner.user.id,
      sellerId: chosen.user.id,
      projectId,
      bidId: bid._id,
      price: 2_500_000,
      days: 9,
      revisionsTotal: BID_ORDER_REVISIONS,
      status: 'awaiting_payment',
    });
    const [chat] = await db.select().from(chats).where(eq(chats.id, res.body.result.chat_id));
    expect(chat).toMatchObject({ kind: 'order', orderId: order!.id });
    const states = await db.select({ id: bids.id, status: bids.status }).from(bids).where(eq(bids.projectId, projectId));
    expect(Object.fromEntries(states.map((s) => [s.id, s.status]))).toEqual({ [bid._id]: 'accepted', [lost._id]: 'rejected' });
    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    expect(project!.status).toBe('in_progress');
    const mail = await db.select().from(outbox).where(and(eq(outbox.kind, 'letter'), sql`${outbox.payload}::text like ${`%${chosen.user.email}%`}`));
    expect(mail.some((m) => JSON.stringify(m.payload).includes('принят'))).toBe(true);

    // Nothing changes afterwards: no edits, no second accept, no new bids.
    expect((await call(app, 'POST', `/api/bids/${bid._id}/accept`, { token: owner.token, body: terms(bid) })).status).toBe(409);
    expect((await call(app, 'POST', `/api/bids/${lost._id}/accept`, { token: owner.token, body: terms(lost) })).status).toBe(409);
    expect((await call(app, 'PUT', `/api/bids/${bid._id}`, { token: chosen.token, body: input() })).status).toBe(409);
    expect((await place(await person(), projectId)).status).toBe(409);
  });

  it('refuses terms the seller changed since the customer saw them (409): the order never takes a price nobody agreed to', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const seen = (await place(seller, projectId, input({ price: 60_000, days: 5 }))).body.result;
    // The seller raises the price (then the term) while the customer's dialog is open.
    expect((await call(app, 'PUT', `/api/bids/${seen._id}`, { token: seller.token, body: input({ price: 100_000_000, days: 5 }) })).status).toBe(200);
    const refused = await call(app, 'POST', `/api/bids/${seen._id}/accept`, { token: owner.token, body: terms(seen) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(BID_MESSAGES.changed);
    expect((await call(app, 'PUT', `/api/bids/${seen._id}`, { token: seller.token, body: input({ price: 60_000, days: 30 }) })).status).toBe(200);
    expect((await call(app, 'POST', `/api/bids/${seen._id}/accept`, { token: owner.token, body: terms(seen) })).status).toBe(409);
    expect(await db.select().from(orders).where(eq(orders.projectId, projectId))).toEqual([]);
    // Without the terms, no accept at all; with the ones now shown, the order takes them.
    expect((await call(app, 'POST', `/api/bids/${seen._id}/accept`, { token: owner.token })).status).toBe(400);
    const accepted = await call<{ order_id: string }>(app, 'POST', `/api/bids/${seen._id}/accept`, { token: owner.token, body: { price: 60_000, days: 30 } });
    expect(accepted.status).toBe(200);
    const [order] = await db.select().from(orders).where(eq(orders.id, accepted.body.result.order_id));
    expect(order).toMatchObject({ price: 60_000, days: 30 });
  });

  it('refuses a bid of a seller blocked since', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const bid = (await place(seller, projectId)).body.result;
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, seller.user.id));
    const res = await call(app, 'POST', `/api/bids/${bid._id}/accept`, { token: owner.token, body: terms(bid) });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BID_MESSAGES.sellerBlocked);
    expect(await db.select().from(orders).where(eq(orders.projectId, projectId))).toEqual([]);
  });

  it('racing accepts of one bid and of two bids give exactly one order', async () => {
    const owner = await customer();
    const projectId = await projectOf(owner);
    const one = (await place(await person(), projectId)).body.result;
    const two = (await place(await person(), projectId)).body.result;
    const accept = (bid: Bid) => call(app, 'POST', `/api/bids/${bid._id}/accept`, { token: owner.token, body: terms(bid) });
    const answers = await Promise.all([accept(one), accept(one), accept(two), accept(two)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const made = await db.select().from(orders).where(eq(orders.projectId, projectId));
    expect(made).toHaveLength(1);
    const accepted = await db.select().from(bids).where(and(eq(bids.projectId, projectId), eq(bids.status, 'accepted')));
    expect(accepted).toHaveLength(1);
  });
});

describe('admin', () => {
  it('lists bids with filters and removes an abusive one with an audit row, never an accepted one', async () => {
    const owner = await customer();
    const seller = await person();
    const projectId = await projectOf(owner);
    const bid = (await place(seller, projectId)).body.result;
    const list = await call<Bid[]>(app, 'GET', '/api/admin/bids', { token: admin.token, query: { seller: seller.user.id, status: 'active' } });
    expect(list.body.result.map((b) => b._id)).toEqual([bid._id]);
    expect((await call<Bid[]>(app, 'GET', '/api/admin/bids', { token: admin.token, query: { project: projectId, status: 'rejected' } })).body.result).toEqual([]);
    expect((await call(app, 'GET', '/api/admin/bids', { token: seller.token })).status).toBe(403);

    expect((await call(app, 'DELETE', `/api/admin/bids/${bid._id}`, { token: admin.token })).status).toBe(200);
    expect(await db.select().from(bids).where(eq(bids.id, bid._id))).toEqual([]);
    const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
    expect(project!.bidsCount).toBe(0);
    const trail = await db.execute(sql`select action from audit_log where target_id = ${bid._id}`);
    expect((trail as unknown as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['bid.remove']);

    const kept = (await place(seller, projectId)).body.result;
    await call(app, 'POST', `/api/bids/${kept._id}/accept`, { token: owner.token, body: terms(kept) });
    expect((await call(app, 'DELETE', `/api/admin/bids/${kept._id}`, { token: admin.token })).status).toBe(409);
  });
});
