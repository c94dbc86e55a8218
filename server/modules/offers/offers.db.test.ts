import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import type { Person } from '../../test/app.ts';
import { createService } from '../../db/catalog-factories.ts';
import { orders } from '../orders/schema.ts';
import { messages } from '../chat/schema.ts';
import { offers } from './schema.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { OFFER_MESSAGES, OFFERS_PER_HOUR, type Offer } from '#contract/offers';
import type { OrderDetail } from '#contract/orders';
import { ORDER_MESSAGES } from '#contract/order-constants';

// Custom offers in an order chat (ADR 066, issue 30): the seller offers a new job (whole or in stages), the customer
// asks for a change, the edited offer replaces it, and the customer accepts: a new order, in stages, with its chat,
// no draft; every step told in the chat; accepted twice at once, one order.

const server = useTestApp({}, { dispatch: false });

const STAGES = [
  { title: 'Логотип', deliverable: 'Логотип в трёх вариантах', amount: 300_000, days: 2 },
  { title: 'Фирменный стиль', deliverable: 'Визитки, бланк, шаблон соцсетей', amount: 500_000, days: 3 },
];
const OFFER = {
  title: 'Фирменный стиль',
  description: 'Логотип, затем визитки, бланк и шаблоны для соцсетей.',
  price: 800_000,
  days: 5,
  stages: STAGES,
};

const post = <T = Offer>(who: Person, url: string, body: unknown = {}) =>
  call<T>(server.app, 'POST', url, { token: who.token, body });
const get = <T>(who: Person, url: string) => call<T>(server.app, 'GET', url, { token: who.token });

/** A paid order between a fresh customer and seller: its chat is where offers are made. */
async function workingPair() {
  const seller = await server.person({ role: 'seller' });
  const customer = await server.person();
  const service = await createService(server.db, seller.user.id, { price: 200_000, days: 2 });
  const order = (await post<OrderDetail>(customer, '/api/orders', { service_id: service.id })).body.result;
  await payOrderForTest(server.app, order._id);
  const detail = (await get<OrderDetail>(customer, `/api/orders/${order._id}`)).body.result;
  return { seller, customer, orderId: order._id, chatId: detail.chat_id! };
}

const chatTexts = async (chatId: string) =>
  (
    await server.db
      .select({ m: messages.message })
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(asc(messages.createdAt))
  ).map((r) => r.m);

describe('custom offers in an order chat', () => {
  it('offered, asked to change, replaced by an edit, accepted: a new order in stages with its own chat, told in the chat', async () => {
    const { seller, customer, orderId, chatId } = await workingPair();
    const first = await post(seller, `/api/orders/${orderId}/offers`, { ...OFFER, stages: null });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ status: 'open', price: 800_000, stages: null, role: 'seller' });

    const change = await post(customer, `/api/offers/${first.body.result._id}/change`, {
      comment: 'Давайте по этапам: сначала логотип',
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.result).toMatchObject({
      status: 'change_requested',
      change_comment: 'Давайте по этапам: сначала логотип',
    });

    const edited = await post(seller, `/api/orders/${orderId}/offers`, OFFER);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const list = (await get<Offer[]>(customer, `/api/orders/${orderId}/offers`)).body.result;
    expect(list.map((o) => [o._id, o.status, o.role])).toEqual([
      [edited.body.result._id, 'open', 'customer'],
      [first.body.result._id, 'replaced', 'customer'],
    ]);
    // The replaced offer can no longer be accepted.
    const stale = await post(customer, `/api/offers/${first.body.result._id}/accept`);
    expect([stale.status, (stale.body as unknown as { message: string }).message]).toEqual([
      409,
      OFFER_MESSAGES.notLive,
    ]);

    // Accepted twice at once (two tabs): one order.
    const [a, b] = await Promise.all([
      post(customer, `/api/offers/${edited.body.result._id}/accept`),
      post(customer, `/api/offers/${edited.body.result._id}/accept`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const accepted = (a.status === 200 ? a : b).body.result;
    const made = await server.db.select().from(orders).where(eq(orders.offerId, edited.body.result._id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      id: accepted.new_order_id,
      title: 'Фирменный стиль',
      price: 800_000,
      days: 5,
      status: 'awaiting_payment',
      customerId: customer.user.id,
      sellerId: seller.user.id,
    });
    const stages = await server.db
      .select()
      .from(orders)
      .where(eq(orders.headId, accepted.new_order_id!))
      .orderBy(asc(orders.stage));
    expect(stages.map((s) => [s.stageTitle, s.price])).toEqual([
      ['Логотип', 300_000],
      ['Фирменный стиль', 500_000],
    ]);
    expect(accepted.pay_order_id).toBe(stages[0]!.id);
    // No draft: its seller sees it, and its chat is open at once.
    const asSeller = await get<OrderDetail>(seller, `/api/orders/${accepted.new_order_id}`);
    expect(asSeller.status).toBe(200);
    expect(asSeller.body.result.chat_id).not.toBeNull();

    // Compared with plain spaces: money and counts are written with no-break spaces.
    const texts = (await chatTexts(chatId)).map((t) => t.replace(/[\u00a0\u202f]/g, ' '));
    expect(
      texts.filter((t) => /предложил новый заказ|изменить предложение|изменил предложение|принял предложение/.test(t)),
    ).toEqual([
      'Исполнитель предложил новый заказ «Фирменный стиль»: 8 000 руб., 5 дней. Ответить можно в карточке заказа.',
      'Прошу изменить предложение «Фирменный стиль»: Давайте по этапам: сначала логотип',
      'Исполнитель изменил предложение «Фирменный стиль»: 8 000 руб., 5 дней, в 2 этапа. Ответить можно в карточке заказа.',
      `Заказчик принял предложение «Фирменный стиль»: заказ №${made[0]!.number} ждёт оплаты.`,
    ]);
  });

  it('refuses the wrong side, a stranger and an admin, stages that do not add up, and a withdrawn offer', async () => {
    const { seller, customer, orderId } = await workingPair();
    const stranger = await server.person({ role: 'seller' });
    const admin = await server.person({ role: 'admin' });
    expect((await post(customer, `/api/orders/${orderId}/offers`, OFFER)).status).toBe(403);
    expect((await post(admin, `/api/orders/${orderId}/offers`, OFFER)).status).toBe(403);
    // Addressed by the order, a stranger (or an unknown order) is told there is no such order; by the offer, no offer.
    for (const refused of [
      await post(stranger, `/api/orders/${orderId}/offers`, OFFER),
      await get(stranger, `/api/orders/${orderId}/offers`),
      await get(seller, `/api/orders/${crypto.randomUUID()}/offers`),
    ]) {
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).toContain(ORDER_MESSAGES.notFound);
    }
    const unknownOffer = await post(customer, `/api/offers/${crypto.randomUUID()}/accept`);
    expect([unknownOffer.status, JSON.stringify(unknownOffer.body)]).toEqual([404, expect.stringContaining(OFFER_MESSAGES.notFound)]);
    const bad = await post(seller, `/api/orders/${orderId}/offers`, { ...OFFER, price: 900_000 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(OFFER_MESSAGES.sumPrice);

    const made = (await post(seller, `/api/orders/${orderId}/offers`, OFFER)).body.result;
    expect((await post(seller, `/api/offers/${made._id}/accept`)).status).toBe(403);
    expect((await post(stranger, `/api/offers/${made._id}/accept`)).status).toBe(404);
    expect((await post(customer, `/api/offers/${made._id}/withdraw`)).status).toBe(403);
    expect((await post(seller, `/api/offers/${made._id}/withdraw`)).status).toBe(200);
    expect((await post(customer, `/api/offers/${made._id}/accept`)).status).toBe(409);
    const [row] = await server.db.select().from(offers).where(eq(offers.id, made._id));
    expect([row!.status, row!.newOrderId]).toEqual(['withdrawn', null]);
  });

  it(`takes ${OFFERS_PER_HOUR} offers an hour from a seller, then answers 429 in Russian; the customer's own limit is untouched`, async () => {
    const { seller, customer, orderId } = await workingPair();
    let last: Offer | undefined;
    for (let i = 0; i < OFFERS_PER_HOUR; i++) {
      const made = await post(seller, `/api/orders/${orderId}/offers`, { ...OFFER, title: `Предложение ${i}` });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      last = made.body.result;
    }
    const refused = await post(seller, `/api/orders/${orderId}/offers`, OFFER);
    expect([refused.status, refused.body]).toEqual([429, expect.objectContaining({ message: OFFER_MESSAGES.tooMany })]);
    // Nothing written by the refused one: the live offer is still the last accepted request's.
    const live = await server.db.select().from(offers).where(eq(offers.status, 'open'));
    expect(live.filter((o) => o.orderId === orderId).map((o) => o.id)).toEqual([last!._id]);
    // The customer answers as usual: the seller's limit is not theirs.
    expect((await post(customer, `/api/offers/${last!._id}/change`, { comment: 'Дешевле' })).status).toBe(200);
  });
});
