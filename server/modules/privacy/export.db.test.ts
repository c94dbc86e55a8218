import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { chats, messages } from '../chat/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { createSession } from '../../platform/sessions.ts';
import type { OrderDetail } from '#contract/orders';

const server = useTestApp({}, { dispatch: false });
const post = <T>(who: Person, url: string, body: unknown = {}) => call<T>(server.app, 'POST', url, { token: who.token, body });

/** The export as the browser downloads it: the raw answer, its headers and the parsed JSON. */
async function download(app: FastifyInstance, who: Person) {
  const res = await app.inject({ method: 'GET', url: '/api/privacy/export', headers: { authorization: `Bearer ${who.token}` } });
  return { res, text: res.body, data: JSON.parse(res.body) as Record<string, unknown[]> & { profile: { email: string } } };
}

/**
 * A customer and a seller with one of each kind of data: a completed order, messages, a review, a project, a
 * notification, the seller's bid on the project and offer in the order's chat, the customer's request to change it.
 */
async function world() {
  const seller = await server.person({ role: 'seller', name: 'Евлампий', surname: 'Сидорчук' });
  const customer = await server.person({ name: 'Аграфена', surname: 'Пантелеева' });
  const service = await createService(server.db, seller.user.id, { price: 100_000, days: 3, revisions: 1, title: 'Логотип продавца Евлампия' });
  await createService(server.db, customer.user.id, { title: 'Услуга Аграфены для экспорта' });
  await createProject(server.db, customer.user.id, { title: 'Проект Аграфены для экспорта' });
  const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  const orderId = ordered.body.result._id;
  await payOrderForTest(server.app, orderId);
  expect((await post(seller, `/api/orders/${orderId}/deliver`, { message: 'Готово' })).status).toBe(200);
  expect((await post(customer, `/api/orders/${orderId}/accept`)).status).toBe(200);
  expect((await post(customer, `/api/orders/${orderId}/reviews`, { rating: 5, text: 'Отзыв Аграфены: всё отлично' })).status).toBe(200);
  // On another customer's project: hers would bring her a notification naming him.
  const other = await server.person();
  const elsewhere = await createProject(server.db, other.user.id, { title: 'Проект другого заказчика' });
  const bid = await post(seller, `/api/projects/${elsewhere.id}/bids`, { price: 150_000, days: 4, comment: 'Отклик Евлампия: сделаю за четыре дня' });
  expect(bid.status, JSON.stringify(bid.body)).toBe(200);
  const offer = await post<{ _id: string }>(seller, `/api/orders/${orderId}/offers`, { title: 'Визитки', description: 'Описание Евлампия: визитки к логотипу', price: 50_000, days: 2 });
  expect(offer.status, JSON.stringify(offer.body)).toBe(200);
  expect((await post(customer, `/api/offers/${offer.body.result._id}/change`, { comment: 'Аграфена просит подешевле' })).status).toBe(200);
  const [chat] = await server.db.select().from(chats).where(eq(chats.orderId, orderId));
  await server.db.insert(messages).values([
    { chatId: chat!.id, senderId: customer.user.id, message: 'Сообщение Аграфены продавцу' },
    { chatId: chat!.id, senderId: seller.user.id, message: 'Ответ Евлампия покупательнице' },
  ]);
  await server.db.insert(notifications).values([
    { userId: customer.user.id, kind: 'orders', text: 'Уведомление для Аграфены', link: '/profile/orders' },
    { userId: seller.user.id, kind: 'orders', text: 'Уведомление для Евлампия', link: '/profile/orders' },
  ]);
  await createSession(server.db, customer.user.id, { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36' }, 'Москва, Россия');
  await createSession(server.db, seller.user.id, { ip: '198.51.100.9', userAgent: null });
  return { seller, customer, orderId };
}

describe('personal-data export', () => {
  it("gives the person each kind of their data as a JSON download, and nothing of anyone else's", async () => {
    const { seller, customer, orderId } = await world();
    const { res, text, data } = await download(server.app, customer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(data.profile).toMatchObject({ email: customer.user.email, name: 'Аграфена', surname: 'Пантелеева' });
    expect(text).not.toContain('password');
    expect(data.consents).toEqual([expect.objectContaining({ kind: 'consent', version: expect.any(Number) })]);
    expect(data.services).toEqual([expect.objectContaining({ title: 'Услуга Аграфены для экспорта' })]);
    expect(data.projects).toEqual([expect.objectContaining({ title: 'Проект Аграфены для экспорта' })]);
    expect(data.orders).toEqual([expect.objectContaining({ id: orderId, side: 'customer', price: 100_000 })]);
    // The offer she was made, with her words (the change she asked for) and not the seller's description; no bids.
    expect(data.offers).toEqual([expect.objectContaining({ side: 'customer', title: 'Визитки', changeComment: 'Аграфена просит подешевле' })]);
    expect(data.offers![0]).not.toHaveProperty('description');
    expect(data.bids).toEqual([]);
    expect(data.messages).toEqual([
      expect.objectContaining({ text: 'Прошу изменить предложение «Визитки»: Аграфена просит подешевле' }),
      expect.objectContaining({ text: 'Сообщение Аграфены продавцу' }),
    ]);
    expect(data.reviews).toEqual([expect.objectContaining({ text: 'Отзыв Аграфены: всё отлично', rating: 5 })]);
    expect(data.payments?.length).toBeGreaterThanOrEqual(2);
    expect(data.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Уведомление для Аграфены' })]));
    expect(data.sessions).toHaveProperty('tokenVersion');
    // Each sign-in's session (ADR 055), the person's only.
    expect((data.sessions as unknown as { devices: unknown[] }).devices).toEqual([expect.objectContaining({ address: '203.0.113.0/24', place: 'Москва, Россия', browser: 'Chrome 120', endedAt: null })]);
    // Nothing of the seller's: their name, email, message, notification, service.
    for (const theirs of ['Евлампий', 'Сидорчук', seller.user.email, seller.user.userName, 'Ответ Евлампия', 'Уведомление для Евлампия', 'Отклик Евлампия', 'Описание Евлампия']) {
      expect(text).not.toContain(theirs);
    }
    // The seller's own export has his bid and his offer's description.
    const theirs = (await download(server.app, seller)).data;
    expect(theirs.bids).toEqual([expect.objectContaining({ comment: 'Отклик Евлампия: сделаю за четыре дня', price: 150_000, status: 'active' })]);
    expect(theirs.offers).toEqual([expect.objectContaining({ side: 'seller', description: 'Описание Евлампия: визитки к логотипу', status: 'change_requested' })]);
  });

  it('is refused to a guest', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/privacy/export' });
    expect(res.statusCode).toBe(401);
  });
});
