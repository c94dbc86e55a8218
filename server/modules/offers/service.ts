import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { offers, type OfferRow } from './schema.ts';
import { HttpError } from '../../lib/http.ts';
import { userActor } from '../../platform/actor.ts';
import type { TxContext } from '../../platform/tx.ts';
import type { UserRow } from '../users/index.ts';
import { BID_ORDER_REVISIONS } from '../bids/index.ts';
import { formatRubles } from '#contract/money-format';
import { pluralWithCount } from '#contract/plural';
import { LIVE_OFFER_STATUSES, OFFER_MESSAGES, OFFERS_ADDRESS_FACTOR, OFFERS_PER_HOUR, type Offer, type offerChangeSchema, type offerInputSchema } from '#contract/offers';
import type { OfferServiceDeps } from './deps.ts';
import { offerPolicy, orderOffersPolicy } from './policy.ts';
import { chatOrderOf, offersOf, offerWithOrder, payOrderOf, presentOffer } from './records.ts';

// Custom offers in an order chat (ADR 066): each step locks what it changes, checks the policy and the offer's state,
// writes, and tells the chat in the same transaction. Nothing here moves money: an accepted offer opens an order
// (OrdersPort.open), paid as any order is.

const conflict = (message: string) => new HttpError(409, message);
const HOUR_MS = 3_600_000;

/** «5 000 руб., 3 дня, в 2 этапа» */
const terms = (o: Pick<OfferRow, 'price' | 'days' | 'stages'>) =>
  `${formatRubles(o.price)}, ${pluralWithCount(o.days, 'день', 'дня', 'дней')}${o.stages ? `, в ${pluralWithCount(o.stages.length, 'этап', 'этапа', 'этапов')}` : ''}`;

export class OfferService {
  constructor(private readonly deps: OfferServiceDeps) {}

  /** GET /api/orders/{id}/offers: the order's parties. */
  async ofOrder(user: UserRow, orderId: string): Promise<Offer[]> {
    orderOffersPolicy.authorize(user, 'view', wrap(await chatOrderOf(this.deps.db, orderId)));
    return (await offersOf(this.deps.db, orderId)).map((r) => presentOffer(r, user));
  }

  /** POST /api/orders/{id}/offers: the seller's new offer; a live one is replaced by it. */
  async create(user: UserRow, orderId: string, input: z.output<typeof offerInputSchema>, ip: string): Promise<Offer> {
    await this.limit(user, ip);
    const row = await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const order = orderOffersPolicy.authorize(user, 'make', wrap(await chatOrderOf(ctx.tx, orderId))).order;
      // Two offers sent at once take turns: the later replaces the earlier.
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`offers:${orderId}`}))`);
      const replaced = await ctx.tx
        .update(offers)
        .set({ status: 'replaced', updatedAt: ctx.clock.now() })
        .where(and(eq(offers.orderId, orderId), inArray(offers.status, [...LIVE_OFFER_STATUSES])))
        .returning({ id: offers.id });
      const [made] = await ctx.tx
        .insert(offers)
        .values({
          orderId,
          customerId: order.customerId,
          sellerId: order.sellerId,
          title: input.title,
          description: input.description,
          price: input.price,
          days: input.days,
          stages: input.stages ?? null,
        })
        .returning();
      await this.tell(
        ctx,
        order.chatId,
        user.id,
        `Исполнитель ${replaced.length ? 'изменил предложение' : 'предложил новый заказ'} «${made!.title}»: ${terms(made!)}. Ответить можно в карточке заказа.`,
      );
      return made!;
    });
    return presentOffer({ ...row, payOrderId: null }, user);
  }

  /** POST /api/offers/{id}/accept: the customer accepts a live offer; a new order awaits payment. */
  async accept(user: UserRow, id: string): Promise<Offer> {
    const row = await this.step(user, id, 'answer', async (ctx, offer, chatId) => {
      const { order } = await this.deps.orders.open(ctx, {
        customerId: offer.customerId,
        sellerId: offer.sellerId,
        offerId: offer.id,
        title: offer.title,
        price: offer.price,
        days: offer.days,
        revisions: BID_ORDER_REVISIONS,
        stages:
          offer.stages?.map((s) => ({ title: s.title, deliverable: s.deliverable, price: s.amount, days: s.days })) ??
          null,
      });
      await this.tell(
        ctx,
        chatId,
        user.id,
        `Заказчик принял предложение «${offer.title}»: заказ №${order.number} ждёт оплаты.`,
      );
      return { status: 'accepted', newOrderId: order.id };
    });
    return presentOffer({ ...row, payOrderId: await payOrderOf(this.deps.db, row.newOrderId) }, user);
  }

  /** POST /api/offers/{id}/change: the customer asks for a change, in words. */
  async change(user: UserRow, id: string, input: z.output<typeof offerChangeSchema>, ip: string): Promise<Offer> {
    await this.limit(user, ip);
    const row = await this.step(user, id, 'answer', async (ctx, offer, chatId) => {
      // The customer's own words: their message (exported and erased with their account, ADR 052), not a system line.
      await this.deps.chat.postInTx(ctx, {
        chatId,
        senderId: user.id,
        kind: 'text',
        message: `Прошу изменить предложение «${offer.title}»: ${input.comment}`,
      });
      return { status: 'change_requested', changeComment: input.comment };
    });
    return presentOffer({ ...row, payOrderId: null }, user);
  }

  /** POST /api/offers/{id}/withdraw: the seller takes a live offer back. */
  async withdraw(user: UserRow, id: string): Promise<Offer> {
    const row = await this.step(user, id, 'make', async (ctx, offer, chatId) => {
      await this.tell(ctx, chatId, user.id, `Исполнитель отозвал предложение «${offer.title}».`);
      return { status: 'withdrawn' };
    });
    return presentOffer({ ...row, payOrderId: null }, user);
  }

  /** One step on a live offer: locked, authorized, checked live, changed as `write` says, in one transaction. */
  private step(
    user: UserRow,
    id: string,
    action: 'make' | 'answer',
    write: (ctx: TxContext, offer: OfferRow, chatId: string) => Promise<Partial<typeof offers.$inferInsert>>,
  ) {
    return this.deps.platform.withTx(userActor(user), async (ctx) => {
      const found = offerPolicy.authorize(user, action, await offerWithOrder(ctx.tx, id, true));
      if (!(LIVE_OFFER_STATUSES as readonly string[]).includes(found.offer.status)) throw conflict(OFFER_MESSAGES.notLive);
      const values = await write(ctx, found.offer, found.order.chatId);
      const [row] = await ctx.tx
        .update(offers)
        .set({ ...values, updatedAt: ctx.clock.now() })
        .where(eq(offers.id, id))
        .returning();
      return row!;
    });
  }

  /** The offers and change requests a person and an address may send in an hour (a 429 past that). */
  private async limit(user: UserRow, ip: string) {
    const { limiter } = this.deps;
    const mine = await limiter.hit(`offers:user:${user.id}`, OFFERS_PER_HOUR, HOUR_MS);
    const address = mine.allowed && (await limiter.hit(`offers:ip:${ip}`, OFFERS_PER_HOUR * OFFERS_ADDRESS_FACTOR, HOUR_MS));
    if (!mine.allowed || !address || !address.allowed) throw new HttpError(429, OFFER_MESSAGES.tooMany);
  }

  private async tell(ctx: TxContext, chatId: string, senderId: string, message: string) {
    await this.deps.chat.postInTx(ctx, { chatId, senderId, kind: 'system', message });
  }
}

/** The policy's subject of an order chat's order, or null when there is no such chat. */
const wrap = <T extends { customerId: string; sellerId: string }>(order: T | null) => (order ? { order } : null);
