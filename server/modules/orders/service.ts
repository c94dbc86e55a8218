import { and, desc, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { orderDeliveries, orders, type OrderRow } from '../../db/schema/money.ts';
import { chats } from '../../db/schema/chat.ts';
import { services } from '../../db/schema/catalog.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { HttpError, notFound } from '../../lib/http.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { OrderLetterEvent } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ChatService, OrderView } from '../chat/index.ts';
import { userActor } from '../../platform/actor.ts';
import type { TxContext } from '../../platform/tx.ts';
import { filesByPaths } from '../../platform/files.ts';
import { postTransfer, type Leg } from '../ledger/index.ts';
import { cappedTotal, cursorPosition, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { markOrderPaid, openOrder, type OpenOrderInput } from './open.ts';
import { cancelRefusal, isOpenPaid, orderPolicy } from './policy.ts';
import { presentChatOrder, presentDetail, presentOrder, type OrderRecord, type OrderTimes } from './presenter.ts';
import {
  ORDER_MESSAGES,
  ORDER_PACKAGE_LABELS,
  type OrderAction,
  type OrderDetail,
  type Order,
  type OrderPackage,
} from '#contract/orders';
import type { z } from 'zod';
import type { adminOrdersQuerySchema, createOrderSchema, ordersQuerySchema } from '#contract/orders';

export interface OrderServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  chat: ChatService;
  log: Logger;
}

/** The delayed job that accepts a delivered order nobody answered (ADR 025). */
export const AUTO_ACCEPT_JOB = 'orders.autoAccept';
/** Unpaid orders a customer may open per hour: nobody floods a seller with orders. */
export const UNPAID_ORDERS_PER_HOUR = 30;
/** Completed orders weigh this many views in a service's popularity (services schema). */
const POPULARITY_PER_ORDER = 20;

const DAY_MS = 86_400_000;

const SORT: readonly SortKey[] = [
  { expr: orders.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: orders.id, dir: 'desc', kind: 'uuid' },
];

const customerUser = alias(users, 'customer');
const sellerUser = alias(users, 'seller');
const personOf = (t: typeof customerUser | typeof sellerUser) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

type Page<T> = { result: T[]; total: number; next: string | null };

/** What one transition tells: its system message, its letter (and to whom), and the escrow's settlement. */
interface Announcement {
  message: string;
  kind?: 'system' | 'delivery';
  files?: string[];
  letter?: { to: 'customer' | 'seller' | 'both'; event: OrderLetterEvent; reason?: string | null };
}

/** Orders: made from a service or an accepted bid, paid into escrow, delivered, accepted or cancelled (ADR 025). */
export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {
    deps.platform.dispatcher.handle<{ orderId: string }>(AUTO_ACCEPT_JOB, (payload, job) => job.withTx((ctx) => this.autoAccept(ctx, payload.orderId)));
  }

  private get db() {
    return this.deps.db;
  }

  private async times(): Promise<OrderTimes> {
    const [cancelWindowMinutes, autoAcceptDays] = await Promise.all([
      this.deps.settings.get('orders.cancelWindowMinutes'),
      this.deps.settings.get('orders.autoAcceptDays'),
    ]);
    return { now: this.deps.platform.clock.now(), cancelWindowMinutes, autoAcceptDays };
  }

  // -------------------------------------------------------------------------------------------------------
  // The interface of other modules (bids, payments)
  // -------------------------------------------------------------------------------------------------------

  /** A new order awaiting payment, in the caller's transaction (the service page, an accepted bid). */
  async open(ctx: TxContext, input: OpenOrderInput) {
    const opened = await openOrder(ctx, this.deps, input);
    await this.announce(ctx, opened.order, input.customerId, {
      message: `Заказ №${opened.order.number} создан. Он ждёт оплаты: после неё исполнитель приступит к работе.`,
      // An accepted bid tells its seller itself (bid.accepted): one notification and one letter for one event.
      letter: input.bidId ? undefined : { to: 'seller', event: 'created' },
    });
    return opened;
  }

  /** awaiting_payment → in_progress, in the payment's transaction; 409 when it is not awaiting payment. */
  async markPaid(ctx: TxContext, orderId: string) {
    const order = await markOrderPaid(ctx, orderId);
    await this.announce(ctx, order, order.customerId, {
      message: `Заказ оплачен, деньги зарезервированы. Исполнитель приступает к работе; срок — ${formatDate(order.deadlineAt!)}.`,
      letter: { to: 'seller', event: 'paid' },
    });
    return order;
  }

  // -------------------------------------------------------------------------------------------------------
  // Reads
  // -------------------------------------------------------------------------------------------------------

  private records() {
    return this.db
      .select({
        order: orders,
        customer: personOf(customerUser),
        seller: personOf(sellerUser),
        chatId: sql<string | null>`(select ${chats.id} from ${chats} where ${chats.orderId} = ${orders.id} and ${chats.kind} = 'order' limit 1)`,
        createdKey: timestampKey(orders.createdAt),
      })
      .from(orders)
      .innerJoin(customerUser, eq(customerUser.id, orders.customerId))
      .innerJoin(sellerUser, eq(sellerUser.id, orders.sellerId))
      .$dynamic();
  }

  private async record(id: string): Promise<OrderRecord | undefined> {
    const [row] = await this.records().where(eq(orders.id, id)).limit(1);
    return row;
  }

  private async detail(record: OrderRecord, viewerId: string | null): Promise<OrderDetail> {
    const deliveries = await this.db
      .select()
      .from(orderDeliveries)
      .where(eq(orderDeliveries.orderId, record.order.id))
      .orderBy(desc(orderDeliveries.createdAt), desc(orderDeliveries.id));
    const files = await filesByPaths(this.db, deliveries.flatMap((d) => d.files));
    return presentDetail(presentOrder(record, viewerId, await this.times()), deliveries, files);
  }

  /** GET /api/orders/{id}: its parties and admins; anyone else 404. */
  async get(user: UserRow, id: string): Promise<OrderDetail> {
    const record = orderPolicy.authorize(user, 'view', await this.record(id));
    return this.detail(record, user.id);
  }

  /** GET /api/admin/orders/{id}. */
  async adminGet(admin: UserRow, id: string): Promise<OrderDetail> {
    const record = await this.record(id);
    if (!record) throw notFound(ORDER_MESSAGES.notFound);
    return this.detail(record, admin.id);
  }

  private async listPage(where: SQL | undefined, query: { cursor?: string; limit: number }, viewerId: string): Promise<Page<Order>> {
    const position = query.cursor ? keysetAfter(SORT, cursorPosition(query.cursor, 'new', SORT)) : undefined;
    const [rows, total, times] = await Promise.all([
      this.records()
        .where(and(where, position))
        .orderBy(...orderBy(SORT))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(orders).where(where).$dynamic()),
      this.times(),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['new', r.createdKey, r.order.id]);
    return { result: kept.map((r) => presentOrder(r, viewerId, times)), total, next };
  }

  /** GET /api/orders: the caller's orders as the customer (buying) or the seller (selling), newest first. */
  list(user: UserRow, query: z.output<typeof ordersQuerySchema>): Promise<Page<Order>> {
    const where = and(
      query.role === 'selling' ? eq(orders.sellerId, user.id) : eq(orders.customerId, user.id),
      query.status ? eq(orders.status, query.status) : undefined,
    );
    return this.listPage(where, query, user.id);
  }

  /** GET /api/admin/orders: every order; q finds by number (digits, "№12") or words of the title. */
  adminList(admin: UserRow, query: z.output<typeof adminOrdersQuerySchema>): Promise<Page<Order>> {
    const where: SQL[] = [];
    if (query.status) where.push(eq(orders.status, query.status));
    const q = query.q?.trim();
    if (q) {
      const digits = /^№?\s*(\d{1,15})$/.exec(q);
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(digits ? or(eq(orders.number, Number(digits[1])), ilike(orders.title, like))! : ilike(orders.title, like));
    }
    return this.listPage(where.length ? and(...where) : undefined, query, admin.id);
  }

  /** The order cards of order chats (ChatService's describeOrders): per order, the view of each member. */
  async describe(orderIds: string[]): Promise<Map<string, OrderView>> {
    if (orderIds.length === 0) return new Map();
    const [rows, times] = await Promise.all([this.records().where(inArray(orders.id, orderIds)), this.times()]);
    return new Map(rows.map((r) => [r.order.id, (viewerId: string) => presentChatOrder(r, viewerId, times)]));
  }

  // -------------------------------------------------------------------------------------------------------
  // Commands
  // -------------------------------------------------------------------------------------------------------

  /** POST /api/orders: a service with a package (or its base offer) and extras; answers the order awaiting payment. */
  async create(user: UserRow, input: z.output<typeof createOrderSchema>): Promise<OrderDetail> {
    const [service] = await this.db.select().from(services).where(eq(services.id, input.service_id)).limit(1);
    if (!service || (service.status !== 'active' && service.sellerId !== user.id)) throw notFound(ORDER_MESSAGES.serviceNotFound);
    if (service.sellerId === user.id) throw new HttpError(403, ORDER_MESSAGES.ownService);
    if (service.status !== 'active') throw new HttpError(409, ORDER_MESSAGES.serviceInactive);
    const [seller] = await this.db.select({ blockedAt: users.blockedAt }).from(users).where(eq(users.id, service.sellerId)).limit(1);
    if (!seller || seller.blockedAt) throw notFound(ORDER_MESSAGES.serviceNotFound);

    let base = { price: service.price, days: service.days, revisions: service.revisions };
    const chosen = input.package ?? null;
    if (chosen) {
      const pkg = service.packages.find((p) => p.kind === chosen);
      if (!pkg) throw new HttpError(400, ORDER_MESSAGES.noSuchPackage, { package: [ORDER_MESSAGES.noSuchPackage] });
      base = { price: pkg.price, days: pkg.days, revisions: pkg.revisions };
    }
    const extras = input.extras.map((i) => {
      const extra = service.extras[i];
      if (!extra) throw new HttpError(400, ORDER_MESSAGES.noSuchExtra, { extras: [ORDER_MESSAGES.noSuchExtra] });
      return { title: extra.title, price: extra.price, days: extra.days };
    });
    const price = base.price + extras.reduce((s, e) => s + e.price, 0);
    const days = base.days + extras.reduce((s, e) => s + e.days, 0);

    const id = await this.deps.platform.withTx(userActor(user), async (ctx) => {
      // Nobody floods a seller: a customer's unpaid orders of the last hour are capped (counted under a lock of
      // the customer's row, so parallel requests cannot all slip under the cap).
      await ctx.tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const hourAgo = new Date(ctx.clock.now().getTime() - 3_600_000);
      const [{ n } = { n: 0 }] = await ctx.tx
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(and(eq(orders.customerId, user.id), eq(orders.status, 'awaiting_payment'), gte(orders.createdAt, hourAgo)));
      if (n >= UNPAID_ORDERS_PER_HOUR) throw new HttpError(429, ORDER_MESSAGES.tooMany);
      const title = chosen ? `${service.title} (${ORDER_PACKAGE_LABELS[chosen as OrderPackage]})` : service.title;
      const { order } = await this.open(ctx, {
        customerId: user.id,
        sellerId: service.sellerId,
        serviceId: service.id,
        title,
        package: chosen,
        extras,
        price,
        days,
        revisions: base.revisions,
      });
      return order.id;
    });
    return this.get(user, id);
  }

  /**
   * One transition: the order locked, the caller authorized for `action` (404 / 403), then `fn` checks the state
   * (409) and writes; all in one transaction with its message, events and letters. Answers the order after it.
   */
  private async command(user: UserRow, id: string, action: Exclude<OrderAction, 'pay'> | 'deliver', fn: (ctx: TxContext, order: OrderRow) => Promise<void>): Promise<OrderDetail> {
    const policyAction = ({ deliver: 'deliver', revision: 'revision', accept: 'accept', cancel: 'cancel', propose_cancel: 'proposeCancel', answer_cancel: 'answerCancel' } as const)[action];
    await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const [order] = await ctx.tx.select().from(orders).where(eq(orders.id, id)).for('update');
      orderPolicy.authorize(user, policyAction, order ? { order } : null);
      await fn(ctx, order!);
    });
    return this.get(user, id);
  }

  /** POST /api/orders/{id}/deliver: the seller hands over a message and files; in_progress → delivered. */
  async deliver(user: UserRow, id: string, input: { message: string; files: string[] }): Promise<OrderDetail> {
    // Checked before the transaction (the chat reads through the pool): the seller's own uploads, as in chat.send.
    const found = await this.record(id);
    orderPolicy.authorize(user, 'deliver', found);
    const files = await this.deps.chat.ownFilesOf(user.id, input.files);
    return this.command(user, id, 'deliver', async (ctx, order) => {
      if (order.status !== 'in_progress') throw new HttpError(409, ORDER_MESSAGES.notInProgress);
      const now = ctx.clock.now();
      const updated = await this.update(ctx, order.id, { status: 'delivered', deliveredAt: now, ...noProposal });
      await ctx.tx.insert(orderDeliveries).values({ orderId: order.id, message: input.message, files, createdAt: now });
      const days = await this.deps.settings.get('orders.autoAcceptDays', ctx.tx);
      // A revision in between makes it a no-op, and an early run after a later delivery moves itself (autoAccept).
      ctx.outbox.job(AUTO_ACCEPT_JOB, { orderId: order.id }, { at: new Date(now.getTime() + days * DAY_MS), dedupeKey: `auto-accept:${order.id}` });
      await this.announce(ctx, updated, user.id, {
        kind: 'delivery',
        message: `Работа сдана.\n\n${input.message}`,
        files,
        letter: { to: 'customer', event: 'delivered' },
      });
    });
  }

  /** POST /api/orders/{id}/revision: the customer sends the work back while revisions remain; delivered → in_progress. */
  revision(user: UserRow, id: string, input: { message: string }): Promise<OrderDetail> {
    return this.command(user, id, 'revision', async (ctx, order) => {
      if (order.status !== 'delivered') throw new HttpError(409, ORDER_MESSAGES.notDelivered);
      if (order.revisionsLeft <= 0) throw new HttpError(409, ORDER_MESSAGES.noRevisionsLeft);
      const updated = await this.update(ctx, order.id, { status: 'in_progress', revisionsLeft: order.revisionsLeft - 1, ...noProposal });
      await this.announce(ctx, updated, user.id, {
        message: `Заказчик запросил доработку (осталось доработок: ${updated.revisionsLeft}).\n\n${input.message}`,
        letter: { to: 'seller', event: 'revision' },
      });
    });
  }

  /** POST /api/orders/{id}/accept: the customer accepts; delivered → completed, the escrow settles to the seller. */
  accept(user: UserRow, id: string): Promise<OrderDetail> {
    return this.command(user, id, 'accept', async (ctx, order) => {
      if (order.status !== 'delivered') throw new HttpError(409, ORDER_MESSAGES.notDelivered);
      await this.complete(ctx, order, user.id, false);
    });
  }

  /** The auto-accept job: a delivered order nobody answered in time is completed; anything else is left alone. */
  async autoAccept(ctx: TxContext, orderId: string): Promise<void> {
    const [order] = await ctx.tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order || order.status !== 'delivered' || !order.deliveredAt) return;
    const days = await this.deps.settings.get('orders.autoAcceptDays', ctx.tx);
    const due = new Date(order.deliveredAt.getTime() + days * DAY_MS);
    // Delivered again after a revision (this job's key was still pending then): wait for the latest delivery.
    if (ctx.clock.now() < due) {
      ctx.outbox.job(AUTO_ACCEPT_JOB, { orderId }, { at: due, dedupeKey: `auto-accept:${orderId}` });
      return;
    }
    await this.complete(ctx, order, order.customerId, true);
  }

  /** delivered → completed: the settlement of ADR 025 (seller, revenue, referral rewards), counters, announcements. */
  private async complete(ctx: TxContext, order: OrderRow, actorId: string, automatic: boolean): Promise<void> {
    const now = ctx.clock.now();
    const updated = await this.update(ctx, order.id, { status: 'completed', completedAt: now, ...noProposal });
    const { legs } = await this.releaseLegs(ctx, order, order.price);
    await this.countCompletion(ctx, order);
    await this.announce(ctx, updated, actorId, {
      message: automatic
        ? 'Заказ принят автоматически: заказчик не ответил вовремя. Оплата зачислена исполнителю.'
        : 'Заказчик принял работу. Заказ завершён, оплата зачислена исполнителю.',
      letter: { to: automatic ? 'both' : 'seller', event: automatic ? 'autoCompleted' : 'completed' },
    });
    // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025).
    const posted = await postTransfer(ctx.tx, { kind: 'release', key: `settle:${order.id}`, orderId: order.id, description: `Заказ №${order.number} завершён`, legs });
    if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
  }

  /**
   * The legs that release `amount` kopecks of the escrow to the seller (ADR 025): the seller gets it less the
   * commission on it, the platform the commission less the referral rewards, which go to the referrers. The whole
   * price on completion; a dispute's share of it (ADR 034), by the same rule.
   */
  private async releaseLegs(ctx: TxContext, order: OrderRow, amount: number): Promise<{ legs: Leg[]; commission: number }> {
    const commission = Math.round((amount * order.commissionBp) / 10_000);
    const rewards = await this.referralRewards(ctx, order, amount, commission);
    const rewardTotal = rewards.reduce((s, r) => s + r.amount, 0);
    const legs: Leg[] = [
      { account: { kind: 'escrow', orderId: order.id }, amount: -amount },
      { account: { kind: 'available', userId: order.sellerId }, amount: amount - commission },
    ];
    // A zero leg is not an entry (the ledger refuses it): a 0 % commission leaves the revenue out.
    if (commission - rewardTotal !== 0) legs.push({ account: { kind: 'revenue' }, amount: commission - rewardTotal });
    if (rewardTotal > 0) {
      legs.push({ account: { kind: 'referral_expense' }, amount: rewardTotal });
      for (const r of rewards) {
        legs.push({ account: { kind: 'referral_expense' }, amount: -r.amount });
        legs.push({ account: { kind: 'available', userId: r.userId }, amount: r.amount });
      }
    }
    return { legs: legs.filter((l) => l.amount !== 0), commission };
  }

  /** A completed order counts for its seller and its service. */
  private async countCompletion(ctx: TxContext, order: OrderRow): Promise<void> {
    await ctx.tx
      .update(users)
      .set({ completedOrders: sql`${users.completedOrders} + 1` })
      .where(eq(users.id, order.sellerId));
    if (order.serviceId) {
      await ctx.tx
        .update(services)
        .set({ ordersCount: sql`${services.ordersCount} + 1`, popularity: sql`${services.popularity} + ${POPULARITY_PER_ORDER}` })
        .where(eq(services.id, order.serviceId));
    }
  }

  /**
   * The referral rewards of a settled order (ADR 025): buyerBp of the released amount (the price on completion)
   * to the customer's referrer and sellerBp to the seller's, each only while the referred person is within
   * referrals.months of registering, together never above the commission.
   */
  private async referralRewards(ctx: TxContext, order: OrderRow, base: number, commission: number): Promise<{ userId: string; amount: number }[]> {
    const people = await ctx.tx
      .select({ id: users.id, referredBy: users.referredBy, createdAt: users.createdAt })
      .from(users)
      .where(inArray(users.id, [order.customerId, order.sellerId]));
    const [buyerBp, sellerBp, months] = await Promise.all([
      this.deps.settings.get('referrals.buyerBp', ctx.tx),
      this.deps.settings.get('referrals.sellerBp', ctx.tx),
      this.deps.settings.get('referrals.months', ctx.tx),
    ]);
    const now = ctx.clock.now();
    const referrerIds = people.flatMap((p) => (p.referredBy ? [p.referredBy] : []));
    const existing = new Set(
      referrerIds.length ? (await ctx.tx.select({ id: users.id }).from(users).where(inArray(users.id, referrerIds))).map((r) => r.id) : [],
    );
    let left = commission;
    const rewards: { userId: string; amount: number }[] = [];
    for (const [personId, bp] of [
      [order.customerId, buyerBp],
      [order.sellerId, sellerBp],
    ] as const) {
      const person = people.find((p) => p.id === personId);
      if (!person?.referredBy || !existing.has(person.referredBy)) continue;
      const until = new Date(person.createdAt);
      until.setUTCMonth(until.getUTCMonth() + months);
      if (now >= until) continue;
      const amount = Math.min(Math.round((base * bp) / 10_000), left);
      if (amount <= 0) continue;
      left -= amount;
      rewards.push({ userId: person.referredBy, amount });
    }
    return rewards;
  }

  /** POST /api/orders/{id}/cancel: by the rules of PRODUCT.md (cancelRefusal); a paid order's escrow goes back. */
  cancel(user: UserRow, id: string, input: { reason: string | null }): Promise<OrderDetail> {
    return this.command(user, id, 'cancel', async (ctx, order) => {
      if (order.status === 'disputed') throw new HttpError(409, ORDER_MESSAGES.disputed);
      const windowMinutes = await this.deps.settings.get('orders.cancelWindowMinutes', ctx.tx);
      const refusal = cancelRefusal(user.id, order, ctx.clock.now(), windowMinutes);
      if (refusal) throw new HttpError(409, refusal);
      const who = user.id === order.customerId ? 'Заказчик' : 'Исполнитель';
      await this.cancelNow(ctx, order, user.id, input.reason, `${who} отменил заказ.`);
    });
  }

  /** → cancelled; the escrow of a paid order back to the customer's balance (`settle:<order>`). */
  private async cancelNow(ctx: TxContext, order: OrderRow, actorId: string, reason: string | null, text: string): Promise<void> {
    const paid = isOpenPaid(order.status);
    const updated = await this.update(ctx, order.id, { status: 'cancelled', cancelledAt: ctx.clock.now(), cancelledBy: actorId, cancelReason: reason, ...noProposal });
    await this.announce(ctx, updated, actorId, {
      message: `${text}${paid ? ' Деньги вернулись на баланс заказчика.' : ''}${reason ? `\n\nПричина: ${reason}` : ''}`,
      letter: { to: actorId === order.customerId ? 'seller' : 'customer', event: 'cancelled', reason },
    });
    // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025).
    if (paid) {
      const posted = await postTransfer(ctx.tx, {
        kind: 'refund',
        key: `settle:${order.id}`,
        orderId: order.id,
        description: `Заказ №${order.number} отменён`,
        legs: [
          { account: { kind: 'escrow', orderId: order.id }, amount: -order.price },
          { account: { kind: 'available', userId: order.customerId }, amount: order.price },
        ],
      });
      if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
    }
  }

  /** POST /api/orders/{id}/cancel-proposal: either party proposes to cancel a paid order; the other answers. */
  proposeCancel(user: UserRow, id: string, input: { reason: string }): Promise<OrderDetail> {
    return this.command(user, id, 'propose_cancel', async (ctx, order) => {
      if (order.status === 'disputed') throw new HttpError(409, ORDER_MESSAGES.disputed);
      if (!isOpenPaid(order.status)) throw new HttpError(409, order.status === 'awaiting_payment' ? ORDER_MESSAGES.notPaid : ORDER_MESSAGES.cannotCancel);
      if (order.cancelProposedBy) throw new HttpError(409, ORDER_MESSAGES.proposalPending);
      const updated = await this.update(ctx, order.id, { cancelProposedBy: user.id, cancelProposedAt: ctx.clock.now(), cancelProposalReason: input.reason });
      const who = user.id === order.customerId ? 'Заказчик' : 'Исполнитель';
      await this.announce(ctx, updated, user.id, {
        message: `${who} предлагает отменить заказ.\n\nПричина: ${input.reason}`,
        letter: { to: user.id === order.customerId ? 'seller' : 'customer', event: 'cancelProposed', reason: input.reason },
      });
    });
  }

  /** POST /api/orders/{id}/cancel-proposal/answer: the other party accepts (cancelled, refunded) or declines. */
  answerCancel(user: UserRow, id: string, input: { accept: boolean }): Promise<OrderDetail> {
    return this.command(user, id, 'answer_cancel', async (ctx, order) => {
      if (!order.cancelProposedBy || !isOpenPaid(order.status)) throw new HttpError(409, ORDER_MESSAGES.noProposal);
      if (order.cancelProposedBy === user.id) throw new HttpError(403, ORDER_MESSAGES.ownProposal);
      const who = user.id === order.customerId ? 'Заказчик' : 'Исполнитель';
      if (input.accept) {
        await this.cancelNow(ctx, order, order.cancelProposedBy, order.cancelProposalReason, `${who} согласился отменить заказ. Заказ отменён по взаимному согласию.`);
        return;
      }
      const updated = await this.update(ctx, order.id, noProposal);
      await this.announce(ctx, updated, user.id, {
        message: `${who} отклонил предложение отменить заказ. Работа продолжается.`,
        letter: { to: user.id === order.customerId ? 'seller' : 'customer', event: 'cancelDeclined' },
      });
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Disputes (ADR 034): the disputes module freezes, unfreezes and settles an order through these, in its
  // transaction; the order's state, chat message and order_updated stay this module's.
  // -------------------------------------------------------------------------------------------------------

  /** The order locked for a dispute's command (null when it does not exist). */
  async lockForDispute(ctx: TxContext, orderId: string): Promise<OrderRow | null> {
    const [order] = await ctx.tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    return order ?? null;
  }

  /** in_progress | delivered → disputed: every step, cancellation and the auto-accept wait until it ends. */
  async freezeForDispute(ctx: TxContext, order: OrderRow, actorId: string, text: string): Promise<OrderRow> {
    if (!isOpenPaid(order.status)) throw new HttpError(409, ORDER_MESSAGES.notDisputable);
    const updated = await this.update(ctx, order.id, { status: 'disputed', statusBeforeDispute: order.status, ...noProposal });
    await this.announce(ctx, updated, actorId, { message: text });
    return updated;
  }

  /**
   * A cancelled dispute: the order returns to the state it froze. The customer's review time of a delivered order
   * was paused while disputed (ADR 034): it resumes with what was left, and the auto-accept job is scheduled again.
   */
  async unfreezeAfterDispute(ctx: TxContext, order: OrderRow, actorId: string, pausedMs: number, text: string): Promise<OrderRow> {
    if (order.status !== 'disputed' || !order.statusBeforeDispute) throw new HttpError(409, ORDER_MESSAGES.notDisputed);
    const back = order.statusBeforeDispute;
    const deliveredAt = back === 'delivered' && order.deliveredAt ? new Date(order.deliveredAt.getTime() + Math.max(0, pausedMs)) : order.deliveredAt;
    const updated = await this.update(ctx, order.id, { status: back, statusBeforeDispute: null, deliveredAt });
    if (back === 'delivered' && deliveredAt) {
      const days = await this.deps.settings.get('orders.autoAcceptDays', ctx.tx);
      ctx.outbox.job(AUTO_ACCEPT_JOB, { orderId: order.id }, { at: new Date(deliveredAt.getTime() + days * DAY_MS), dedupeKey: `auto-accept:${order.id}` });
    }
    await this.announce(ctx, updated, actorId, { message: text });
    return updated;
  }

  /**
   * An admin's decision on a disputed order (ADR 034): `sellerAmount` kopecks of the escrow go to the seller as a
   * completion settles them (commission, referral rewards), the rest back to the customer's balance, in the
   * caller's one transaction. Some money to the seller completes the order; none cancels it.
   */
  async settleDispute(ctx: TxContext, order: OrderRow, actorId: string, sellerAmount: number, text: string): Promise<{ commission: number }> {
    if (order.status !== 'disputed') throw new HttpError(409, ORDER_MESSAGES.notDisputed);
    if (!Number.isInteger(sellerAmount) || sellerAmount < 0 || sellerAmount > order.price) throw new HttpError(400, ORDER_MESSAGES.badShare);
    const now = ctx.clock.now();
    const refund = order.price - sellerAmount;
    const completed = sellerAmount > 0;
    const updated = await this.update(
      ctx,
      order.id,
      completed
        ? { status: 'completed', completedAt: now, statusBeforeDispute: null }
        : { status: 'cancelled', cancelledAt: now, cancelledBy: actorId, cancelReason: text, statusBeforeDispute: null },
    );
    const release = completed ? await this.releaseLegs(ctx, order, sellerAmount) : { legs: [], commission: 0 };
    if (completed) await this.countCompletion(ctx, order);
    await this.announce(ctx, updated, actorId, { message: text });
    // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025). Two transfers of one
    // transaction when split, so that each side reads as what it is (a payment for the order, a refund).
    if (completed) {
      const posted = await postTransfer(ctx.tx, { kind: 'release', key: `settle:${order.id}`, orderId: order.id, description: `Заказ №${order.number}: решение по спору`, legs: release.legs });
      if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
    }
    if (refund > 0) {
      const posted = await postTransfer(ctx.tx, {
        kind: 'refund',
        key: completed ? `settle:${order.id}:refund` : `settle:${order.id}`,
        orderId: order.id,
        description: `Заказ №${order.number}: возврат по решению спора`,
        legs: [
          { account: { kind: 'escrow', orderId: order.id }, amount: -refund },
          { account: { kind: 'available', userId: order.customerId }, amount: refund },
        ],
      });
      if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
    }
    return { commission: release.commission };
  }

  /** The commission a release of `amount` would take (the decision form's preview, ADR 034). */
  static commissionOn(order: Pick<OrderRow, 'commissionBp'>, amount: number): number {
    return Math.round((amount * order.commissionBp) / 10_000);
  }

  // -------------------------------------------------------------------------------------------------------
  // Helpers
  // -------------------------------------------------------------------------------------------------------

  private async update(ctx: TxContext, id: string, values: Partial<typeof orders.$inferInsert>): Promise<OrderRow> {
    const [row] = await ctx.tx
      .update(orders)
      .set({ ...values, updatedAt: ctx.clock.now() })
      .where(eq(orders.id, id))
      .returning();
    return row!;
  }

  /**
   * What every state change writes besides the state, in its transaction: the system message in the order's chat
   * (fanned out after the commit by the chat's outbox job), order_updated to both parties, and the letter.
   */
  private async announce(ctx: TxContext, order: OrderRow, actorId: string, a: Announcement): Promise<void> {
    const [chat] = await ctx.tx
      .select({ id: chats.id })
      .from(chats)
      .where(and(eq(chats.orderId, order.id), eq(chats.kind, 'order')))
      .limit(1);
    if (chat) await this.deps.chat.postInTx(ctx, { chatId: chat.id, senderId: actorId, kind: a.kind ?? 'system', message: a.message, files: a.files });
    ctx.outbox.emit([order.customerId, order.sellerId], 'order_updated', { _id: order.id, number: order.number, status: order.status });
    if (a.letter) {
      const to = a.letter.to === 'both' ? [order.customerId, order.sellerId] : [a.letter.to === 'customer' ? order.customerId : order.sellerId];
      const people = await ctx.tx
        .select({ id: users.id, email: users.email, name: users.name, preferences: users.preferences })
        .from(users)
        .where(inArray(users.id, to));
      for (const person of people) {
        this.deps.letters.notify(ctx.outbox, person, 'order.event', {
          number: order.number,
          title: order.title,
          event: a.letter.event,
          reason: a.letter.reason ?? null,
          path: chat ? `/profile/messages?tab=orders&chat=${chat.id}` : '/profile/orders',
        });
      }
    }
  }
}

const noProposal = { cancelProposedBy: null, cancelProposedAt: null, cancelProposalReason: null };

/** "25 ноября 2026, 14:30" (Moscow time). */
function formatDate(d: Date): string {
  return new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' }).format(d);
}
