import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { services } from '../services/schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { reviews } from './schema.ts';
import { notifications } from '../notifications/schema.ts';
import { users } from '../users/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { REVIEW_MESSAGES, type PendingReview, type Review } from '#contract/reviews';
import type { OrderDetail } from '#contract/orders';
import type { PublicProfile } from '#contract/catalog';

const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const server = useTestApp({}, { dispatch: false, clock });

const person = server.person;

const DAY = 86_400_000;
const post = <T = Review>(who: Person | null, url: string, body?: unknown) => call<T>(server.app, 'POST', url, { token: who?.token, body: body ?? {} });
const get = <T = Review[]>(who: Person | null, url: string, query?: Record<string, string>) => call<T>(server.app, 'GET', url, { token: who?.token, query });
const runJobs = () => server.app.services.platform.dispatcher.runDue();

const GOOD = 'Отличная работа, всё в срок и аккуратно.';

/** A completed order of a fresh seller's service (or of `seller`'s, or of `service`, when given), by a fresh customer. */
async function completedOrder(opts: { seller?: Person; customer?: Person; service?: Awaited<ReturnType<typeof createService>> } = {}) {
  const seller = opts.seller ?? (await person({ role: 'seller' }));
  const customer = opts.customer ?? (await person());
  const service = opts.service ?? (await createService(server.db, seller.user.id, { price: 100_000, days: 3, revisions: 1 }));
  const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  const order = ordered.body.result;
  await payOrderForTest(server.app, order._id);
  expect((await post(seller, `/api/orders/${order._id}/deliver`, { message: 'Готово' })).status).toBe(200);
  expect((await post(customer, `/api/orders/${order._id}/accept`)).status).toBe(200);
  return { seller, customer, service, order };
}

const review = (who: Person, orderId: string, rating: number, text: string | null = GOOD) => post(who, `/api/orders/${orderId}/reviews`, { rating, text });
const stats = async (userId: string) => (await server.db.select({ rating: users.rating, count: users.reviewsCount }).from(users).where(eq(users.id, userId)))[0]!;
const serviceStats = async (id: string) => (await server.db.select({ rating: services.rating, count: services.reviewsCount }).from(services).where(eq(services.id, id)))[0]!;
/** A person's name as letters and notifications show it. */
const displayNameOf = (p: Person) => `${p.user.name} ${p.user.surname}`.trim() || p.user.userName;
const noticesOf = async (userId: string, kind: string) =>
  (await server.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)))).map((n) => [n.text, n.link]);
const profile = async (id: string) => (await get<PublicProfile>(null, `/api/users/${id}`)).body.result;

describe('double-blind reviews', () => {
  it("lists a public service's reviews, counted on every first page, and none once it is not public", async () => {
    const first = await completedOrder();
    const { seller, service } = first;
    const second = await completedOrder({ seller, service });
    for (const { customer, order } of [first, second]) {
      expect((await review(customer, order._id, 5)).status).toBe(200);
      expect((await review(seller, order._id, 4, null)).status).toBe(200);
    }
    const url = `/api/services/${service.id}/reviews`;
    type Listed = { result: Review[]; total: number; next: string | null };
    // A page that holds them all, and the first of two pages: the same count.
    const whole = (await get<Review[]>(null, url)).body as unknown as Listed;
    expect([whole.result.length, whole.total, whole.next]).toEqual([2, 2, null]);
    const firstOfTwo = (await get<Review[]>(null, url, { limit: '1' })).body as unknown as Listed;
    expect([firstOfTwo.result.length, firstOfTwo.total]).toEqual([1, 2]);
    const cursor = firstOfTwo.next!;
    const rest = (await get<Review[]>(null, url, { limit: '1', cursor })).body as unknown as Listed;
    expect([...firstOfTwo.result, ...rest.result].map((r) => r._id).sort()).toEqual(whole.result.map((r) => r._id).sort());

    // Paused by its seller: its reviews are a 404 like an unknown service's, whichever page is asked.
    await server.db.update(services).set({ status: 'paused' }).where(eq(services.id, service.id));
    expect((await get(null, url)).status).toBe(404);
    expect((await get(null, url, { limit: '1', cursor })).status).toBe(404);
    expect((await get(null, '/api/services/00000000-0000-4000-8000-000000000000/reviews')).status).toBe(404);
    // A public service nobody has reviewed: an empty list.
    const bare = await createService(server.db, seller.user.id);
    const none = (await get<Review[]>(null, `/api/services/${bare.id}/reviews`)).body as unknown as Listed;
    expect([none.result, none.total, none.next]).toEqual([[], 0, null]);
  });

  it('keeps a review hidden until the other party reviews, then publishes both, notifies and rates', async () => {
    const { seller, customer, service, order } = await completedOrder();
    const first = await review(customer, order._id, 5);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ published: false, author_role: 'customer', rating: 5 });
    // Completed at the test clock's now: published by then + reviews.blindDays (14) at the latest.
    expect(first.body.result.publish_at).toBe(new Date(clock.now().getTime() + 14 * DAY).toISOString());

    // Nobody but its author sees it: not the seller, not the public lists, not the ratings.
    expect((await get(seller, '/api/reviews/my', { box: 'received' })).body.result).toEqual([]);
    expect((await get(null, `/api/services/${service.id}/reviews`)).body.result).toEqual([]);
    expect((await get(null, `/api/users/${seller.user.id}/reviews`)).body.result).toEqual([]);
    expect((await get(customer, '/api/reviews/my', { box: 'given' })).body.result.map((r) => r._id)).toEqual([first.body.result._id]);
    expect(await stats(seller.user.id)).toEqual({ rating: 0, count: 0 });
    // The seller cannot answer what they cannot see.
    expect((await post(seller, `/api/reviews/${first.body.result._id}/answer`, { text: 'Спасибо' })).status).toBe(404);
    // The seller's "waiting" list says the other side has reviewed.
    const pending = (await get<PendingReview[]>(seller, '/api/reviews/pending')).body.result;
    expect(pending.find((p) => p.order_id === order._id)).toMatchObject({ role: 'seller', other_reviewed: true });

    // The seller's review (text optional for the seller) publishes both.
    const second = await review(seller, order._id, 4, null);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.result.published).toBe(true);
    const ofService = await get(null, `/api/services/${service.id}/reviews`);
    expect(ofService.body.result.map((r) => [r.author_role, r.rating, r.text])).toEqual([['customer', 5, GOOD]]);
    expect(ofService.body.total).toBe(1);
    // Which order a review is of is its parties' and admins' business: not the public's, nor another member's.
    const stranger = await person();
    const admin = await person({ role: 'admin' });
    for (const who of [null, stranger]) {
      for (const url of [`/api/services/${service.id}/reviews`, `/api/users/${seller.user.id}/reviews`, `/api/users/${customer.user.id}/reviews`]) {
        const listed = (await get(who, url)).body.result;
        expect(listed.length, url).toBe(1);
        expect(listed[0], url).not.toHaveProperty('order_id');
      }
    }
    for (const who of [customer, seller, admin]) {
      expect((await get(who, `/api/services/${service.id}/reviews`)).body.result[0]!.order_id).toBe(order._id);
    }
    expect((await get(customer, '/api/reviews/my', { box: 'given' })).body.result[0]!.order_id).toBe(order._id);
    const aboutCustomer = (await get(null, `/api/users/${customer.user.id}/reviews`)).body.result;
    expect(aboutCustomer.map((r) => [r.author_role, r.rating])).toEqual([['seller', 4]]);
    expect(await stats(seller.user.id)).toEqual({ rating: 500, count: 1 });
    expect(await serviceStats(service.id)).toEqual({ rating: 500, count: 1 });
    // The seller's own rating is not the customer's review of them: customers' ratings stay out of users.rating.
    expect(await stats(customer.user.id)).toEqual({ rating: 0, count: 0 });
    expect((await get<PendingReview[]>(seller, '/api/reviews/pending')).body.result.some((p) => p.order_id === order._id)).toBe(false);

    // Each recipient gets a "new review" letter through the outbox.
    const letters = await server.db.select().from(outbox).where(eq(outbox.kind, 'letter'));
    const subjects = letters.map((l) => {
      const { to, letter } = l.payload as { to: string; letter: { subject: string } };
      return `${to} ${letter.subject}`;
    });
    expect(subjects).toContain(`${seller.user.email} Новый отзыв о вас по заказу №${order.number} — Подряд`);
    expect(subjects).toContain(`${customer.user.email} Новый отзыв о вас по заказу №${order.number} — Подряд`);
    // And exactly one in-app notification each, leading to their reviews (ADR 030), none while it was hidden.
    const about = (author: string, rating: number) => [
      [`Новый отзыв о вас по заказу №${order.number} «${order.title}»: ${author}, оценка ${rating} из 5`, '/profile/reviews'],
    ];
    expect(await noticesOf(seller.user.id, 'review.new')).toEqual(about(displayNameOf(customer), 5));
    expect(await noticesOf(customer.user.id, 'review.new')).toEqual(about(displayNameOf(seller), 4));
  });

  it('publishes a lone review when the blind period ends (the delayed job), not a day before', async () => {
    const { seller, customer, order } = await completedOrder();
    const lone = await review(customer, order._id, 4);
    expect(lone.status).toBe(200);
    clock.advance(13 * DAY);
    await runJobs();
    expect((await get(null, `/api/users/${seller.user.id}/reviews`)).body.result).toEqual([]);
    clock.advance(DAY + 1000);
    await runJobs();
    const published = (await get(null, `/api/users/${seller.user.id}/reviews`)).body.result;
    expect(published.map((r) => r._id)).toEqual([lone.body.result._id]);
    expect(await stats(seller.user.id)).toEqual({ rating: 400, count: 1 });
    // The period is over: the other party may no longer review.
    const late = await review(seller, order._id, 5);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(REVIEW_MESSAGES.windowClosed);
    expect((await get<PendingReview[]>(seller, '/api/reviews/pending')).body.result.some((p) => p.order_id === order._id)).toBe(false);
    void customer;
  });
});

describe('who may review what', () => {
  it('refuses an order that is not completed, strangers, admins, a second review and a short text', async () => {
    const seller = await person({ role: 'seller' });
    const customer = await person();
    const service = await createService(server.db, seller.user.id, { price: 100_000, days: 3, revisions: 1 });
    const open = (await post<OrderDetail>(customer, '/api/orders', { service_id: service.id })).body.result;
    const unpaid = await review(customer, open._id, 5);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.message).toBe(REVIEW_MESSAGES.notCompleted);
    await payOrderForTest(server.app, open._id);
    expect((await review(customer, open._id, 5)).status).toBe(409);
    expect(await server.db.select().from(reviews).where(eq(reviews.orderId, open._id))).toEqual([]);

    const { customer: buyer, order } = await completedOrder();
    const stranger = await person();
    const admin = await person({ role: 'admin' });
    expect((await review(stranger, order._id, 5)).status).toBe(404);
    expect((await review(admin, order._id, 5)).status).toBe(403);
    expect((await review(buyer, '00000000-0000-4000-8000-000000000000', 5)).status).toBe(404);
    const short = await review(buyer, order._id, 5, 'Хорошо');
    expect(short.status).toBe(400);
    expect(short.body.errors?.text).toEqual([REVIEW_MESSAGES.textTooShort(10)]);
    expect((await review(buyer, order._id, 0)).status).toBe(400);
    expect((await review(buyer, order._id, 6)).status).toBe(400);
    expect((await review(buyer, order._id, 5)).status).toBe(200);
    const again = await review(buyer, order._id, 1);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(REVIEW_MESSAGES.already);
    expect(await server.db.select().from(reviews).where(eq(reviews.orderId, order._id))).toHaveLength(1);
  });
});

describe('answers and removal', () => {
  it('lets the person a review is about answer it once, and nobody else', async () => {
    const { seller, customer, order } = await completedOrder();
    const mine = (await review(customer, order._id, 5)).body.result;
    await review(seller, order._id, 5, null);
    const stranger = await person();
    expect((await post(customer, `/api/reviews/${mine._id}/answer`, { text: 'Сам себе' })).status).toBe(403);
    expect((await post(stranger, `/api/reviews/${mine._id}/answer`, { text: 'Чужой' })).status).toBe(403);
    expect((await post(seller, `/api/reviews/${mine._id}/answer`, { text: '   ' })).status).toBe(400);
    const received = (await get(seller, '/api/reviews/my', { box: 'received' })).body.result;
    expect(received.find((r) => r._id === mine._id)?.can_answer).toBe(true);
    const answered = await post(seller, `/api/reviews/${mine._id}/answer`, { text: 'Спасибо за заказ!' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.result.answer?.text).toBe('Спасибо за заказ!');
    expect(answered.body.result.can_answer).toBe(false);
    const twice = await post(seller, `/api/reviews/${mine._id}/answer`, { text: 'Ещё раз' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(REVIEW_MESSAGES.alreadyAnswered);
    const [row] = await server.db.select().from(reviews).where(eq(reviews.id, mine._id));
    expect(row!.answer).toBe('Спасибо за заказ!');
    // The author of the review is told once, with a link to the reviews they gave.
    expect(await noticesOf(customer.user.id, 'review.answered')).toEqual([
      [`Ответ на ваш отзыв по заказу №${order.number} «${order.title}»: ${displayNameOf(seller)}`, '/profile/reviews?box=given'],
    ]);
  });

  it('lets only an admin remove a review, audited, and recomputes the ratings', async () => {
    const seller = await person({ role: 'seller' });
    const a = await completedOrder({ seller });
    const b = await completedOrder({ seller });
    const kept = (await review(a.customer, a.order._id, 5)).body.result;
    await review(seller, a.order._id, 5, null);
    const bad = (await review(b.customer, b.order._id, 2)).body.result;
    await review(seller, b.order._id, 5, null);
    expect(await stats(seller.user.id)).toEqual({ rating: 350, count: 2 });
    expect(await serviceStats(b.service.id)).toEqual({ rating: 200, count: 1 });
    // The cards carry each service's own rating and count, and the rating sort follows them.
    const listed = (await get<{ _id: string; rating: number; reviews_count: number }[]>(null, '/api/services', { sort: 'rating', limit: '50' })).body.result;
    const at = (id: string) => listed.findIndex((c) => c._id === id);
    expect(listed[at(a.service.id)]).toMatchObject({ rating: 5, reviews_count: 1 });
    expect(listed[at(b.service.id)]).toMatchObject({ rating: 2, reviews_count: 1 });
    expect(at(a.service.id)).toBeLessThan(at(b.service.id));

    expect((await call(server.app, 'DELETE', `/api/admin/reviews/${bad._id}`, { token: seller.token })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/admin/reviews/${bad._id}`, { token: b.customer.token })).status).toBe(403);
    const admin = await person({ role: 'admin' });
    const removed = await call(server.app, 'DELETE', `/api/admin/reviews/${bad._id}`, { token: admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await stats(seller.user.id)).toEqual({ rating: 500, count: 1 });
    expect(await serviceStats(b.service.id)).toEqual({ rating: 0, count: 0 });
    const [entry] = await server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'review'), eq(auditLog.targetId, bad._id)));
    expect(entry).toMatchObject({ actorId: admin.user.id, action: 'review.remove' });
    expect((await get(null, `/api/users/${seller.user.id}/reviews`)).body.result.map((r) => r._id)).toEqual([kept._id]);
    expect((await call(server.app, 'DELETE', `/api/admin/reviews/${bad._id}`, { token: admin.token })).status).toBe(404);
    // A removed review is not written again.
    expect((await review(b.customer, b.order._id, 5)).status).toBe(409);
  });
});

describe('ratings and levels', () => {
  it('recomputes the rating and the derived level as reviews are published', async () => {
    const seller = await person({ role: 'seller' });
    for (const rating of [5, 4]) {
      const { customer, order } = await completedOrder({ seller });
      await review(customer, order._id, rating);
      await review(seller, order._id, 5, null);
    }
    expect(await stats(seller.user.id)).toEqual({ rating: 450, count: 2 });
    expect(await profile(seller.user.id)).toMatchObject({ rating: 4.5, reviews_count: 2, orders_count: 2, level: 'new' });
    // Ten completed orders with a 4.5 rating: Продвинутый.
    await server.db.update(users).set({ completedOrders: 10 }).where(eq(users.id, seller.user.id));
    expect((await profile(seller.user.id)).level).toBe('advanced');
    const listed = await get<{ _id: string }[]>(null, '/api/freelancers', { level: 'advanced' });
    expect(listed.body.result.map((p) => p._id)).toContain(seller.user.id);
    // A 3 takes the mean to 4.0: back to Новичок, in the profile and in the level filter.
    const { customer, order } = await completedOrder({ seller });
    await review(customer, order._id, 3);
    await review(seller, order._id, 5, null);
    expect(await stats(seller.user.id)).toEqual({ rating: 400, count: 3 });
    expect((await profile(seller.user.id)).level).toBe('new');
    expect((await get<{ _id: string }[]>(null, '/api/freelancers', { level: 'advanced' })).body.result.map((p) => p._id)).not.toContain(seller.user.id);
  });

  it('counts only the reviews of the last two years, and the daily job drops those that leave the window', async () => {
    const seller = await person({ role: 'seller' });
    const old = await completedOrder({ seller });
    const oldReview = (await review(old.customer, old.order._id, 1)).body.result;
    await review(seller, old.order._id, 5, null);
    expect(await stats(seller.user.id)).toEqual({ rating: 100, count: 1 });
    // Written 25 months ago: outside the window when the next review is counted.
    const back = new Date(clock.now());
    back.setUTCMonth(back.getUTCMonth() - 25);
    await server.db.update(reviews).set({ createdAt: back }).where(eq(reviews.id, oldReview._id));
    const fresh = await completedOrder({ seller });
    await review(fresh.customer, fresh.order._id, 5);
    await review(seller, fresh.order._id, 5, null);
    expect(await stats(seller.user.id)).toEqual({ rating: 500, count: 1 });

    // A review a day inside the window: it counts today, and after two days the daily job takes it out.
    const edge = await completedOrder({ seller });
    const edgeReview = (await review(edge.customer, edge.order._id, 2)).body.result;
    await review(seller, edge.order._id, 5, null);
    const inside = new Date(clock.now());
    inside.setUTCMonth(inside.getUTCMonth() - 24);
    await server.db.update(reviews).set({ createdAt: new Date(inside.getTime() + DAY) }).where(eq(reviews.id, edgeReview._id));
    await server.app.services.platform.withTx({ kind: 'system', name: 'test' }, (ctx) => server.app.services.reviews.recompute(ctx, seller.user.id, null));
    expect(await stats(seller.user.id)).toEqual({ rating: 350, count: 2 });
    clock.advance(2 * DAY);
    expect(await server.app.services.reviews.refreshRatingWindow()).toBeGreaterThanOrEqual(1);
    expect(await stats(seller.user.id)).toEqual({ rating: 500, count: 1 });
  });
});
