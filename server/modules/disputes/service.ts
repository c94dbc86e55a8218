import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { disputes, type DisputeRow } from '../../db/schema/disputes.ts';
import { orders } from '../../db/schema/money.ts';
import { chatMembers, chats } from '../../db/schema/chat.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { HttpError, notFound } from '../../lib/http.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { displayName, isUuid } from '../../lib/text.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { filesByPaths } from '../../platform/files.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { DisputeLetterEvent } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { TxContext } from '../../platform/tx.ts';
import { LOST_DISPUTE_DAYS, cappedTotal, cursorPosition, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ChatService } from '../chat/index.ts';
import type { OrderService } from '../orders/index.ts';
import { disputeOrderPolicy, disputePolicy } from './policy.ts';
import { presentDispute, type DisputeRecord } from './presenter.ts';
import {
  DISPUTE_MESSAGES,
  DISPUTE_OUTCOME_LABELS,
  DISPUTE_REASON_LABELS,
  DISPUTES_PER_DAY,
  type AdminDisputeRow,
  type Dispute,
  type DisputeStatus,
} from '#contract/disputes';
import { SOCKET_EVENTS } from '#contract/chat';
import type { z } from 'zod';
import type { adminDisputesQuerySchema, createDisputeSchema, myDisputesQuerySchema, resolveDisputeSchema } from '#contract/disputes';

// Disputes over orders (issue 14, ADR 034). Opening freezes the order (`disputed`) and opens the dispute's chat
// with both parties; an admin joins it by taking the dispute (or by resolving it). Cancelling returns the order to
// the state it froze; resolving settles the escrow through the orders module in the same transaction. Every
// change is one withTx with its chat messages, letters and the new_dispute events (an outbox job, which presents
// the chat to each addressee after the commit).

export interface DisputeServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Pick<Realtime, 'emitToUsers'>;
  chat: ChatService;
  orders: OrderService;
  limiter: RateLimiter;
  log: Logger;
}

/** The outbox job that sends new_dispute to a dispute's parties and every admin, each with the chat as they see it. */
export const DISPUTE_ANNOUNCE_JOB = 'disputes.announce';

/** A seller loses a dispute decided with less than this share of the price (ADR 034). */
export const LOST_BELOW_PERCENT = 50;

const DAY_MS = 86_400_000;

const customerUser = alias(users, 'customer');
const sellerUser = alias(users, 'seller');
const adminUser = alias(users, 'arbiter');
const personOf = (t: typeof customerUser | typeof sellerUser | typeof adminUser) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

/** The admin queue: oldest first (the longest waiting on top). */
const QUEUE: readonly SortKey[] = [
  { expr: disputes.createdAt, dir: 'asc', kind: 'timestamptz' },
  { expr: disputes.id, dir: 'asc', kind: 'uuid' },
];

const rubles = (kopecks: number) => `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 }).format(kopecks / 100)} ₽`;

export class DisputeService {
  constructor(private readonly deps: DisputeServiceDeps) {
    deps.platform.dispatcher.handle<{ disputeId: string }>(DISPUTE_ANNOUNCE_JOB, ({ disputeId }) => this.announce(disputeId));
  }

  private get db() {
    return this.deps.db;
  }

  // -------------------------------------------------------------------------------------------------------
  // Reads
  // -------------------------------------------------------------------------------------------------------

  private records() {
    return this.db
      .select({
        dispute: disputes,
        order: {
          id: orders.id,
          number: orders.number,
          title: orders.title,
          price: orders.price,
          status: orders.status,
          customerId: orders.customerId,
          sellerId: orders.sellerId,
          commissionBp: orders.commissionBp,
        },
        customer: personOf(customerUser),
        seller: personOf(sellerUser),
        admin: personOf(adminUser),
        chatId: sql<string | null>`(select ${chats.id} from ${chats} where ${chats.disputeId} = ${disputes.id} and ${chats.kind} = 'dispute' limit 1)`,
        orderChatId: sql<string | null>`(select ${chats.id} from ${chats} where ${chats.orderId} = ${orders.id} and ${chats.kind} = 'order' limit 1)`,
        createdKey: timestampKey(disputes.createdAt),
      })
      .from(disputes)
      .innerJoin(orders, eq(orders.id, disputes.orderId))
      .innerJoin(customerUser, eq(customerUser.id, orders.customerId))
      .innerJoin(sellerUser, eq(sellerUser.id, orders.sellerId))
      .leftJoin(adminUser, eq(adminUser.id, disputes.adminId))
      .$dynamic();
  }

  private async record(id: string): Promise<(DisputeRecord & { createdKey: string }) | undefined> {
    const [row] = await this.records().where(eq(disputes.id, id)).limit(1);
    return row ? fixAdmin(row) : undefined;
  }

  /** The disputes with their chats as `viewer` sees them (chat: the full chat of the chat module). */
  private async present(viewer: UserRow, rows: DisputeRecord[]): Promise<Dispute[]> {
    if (rows.length === 0) return [];
    const [files, flagDays, chatRows] = await Promise.all([
      filesByPaths(this.db, rows.flatMap((r) => r.dispute.files)),
      this.deps.settings.get('disputes.flagDays'),
      this.db
        .select()
        .from(chats)
        .where(inArray(chats.id, rows.flatMap((r) => (r.chatId ? [r.chatId] : [])))),
    ]);
    const views = new Map((await this.deps.chat.chatsFor(viewer.id, chatRows)).map((c) => [c._id, c]));
    const now = this.deps.platform.clock.now();
    return rows.flatMap((r) => {
      const chat = r.chatId ? views.get(r.chatId) : undefined;
      return chat ? [{ ...presentDispute(r, viewer.id, files, now, flagDays), chat }] : [];
    });
  }

  /** One dispute as `user` sees it (its parties and admins; anyone else 404). */
  private async view(user: UserRow, id: string): Promise<Dispute> {
    const record = await this.record(id);
    disputePolicy.authorize(user, 'view', record?.dispute);
    const [dispute] = await this.present(user, [record!]);
    if (!dispute) throw notFound(DISPUTE_MESSAGES.notFound);
    return dispute;
  }

  /** GET /api/disputes/my: the disputes the caller opened or answers, newest first. */
  async mine(user: UserRow, query: z.output<typeof myDisputesQuerySchema>): Promise<{ result: Dispute[]; total: number }> {
    const where = and(or(eq(disputes.openedBy, user.id), eq(disputes.respondentId, user.id)), query.status ? eq(disputes.status, query.status) : undefined);
    const [rows, [{ total } = { total: 0 }]] = await Promise.all([
      this.records()
        .where(where)
        .orderBy(desc(disputes.createdAt), desc(disputes.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      this.db.select({ total: sql<number>`count(*)::int` }).from(disputes).where(where),
    ]);
    return { result: await this.present(user, rows.map(fixAdmin)), total };
  }

  /** GET /api/admin/disputes: the queue, oldest first; by state, the 7-day flag, or an order's number. */
  async adminList(admin: UserRow, query: z.output<typeof adminDisputesQuerySchema>): Promise<{ result: AdminDisputeRow[]; total: number; next: string | null }> {
    const flagDays = await this.deps.settings.get('disputes.flagDays');
    const now = this.deps.platform.clock.now();
    const flagBefore = new Date(now.getTime() - flagDays * DAY_MS);
    const where: SQL[] = [];
    if (query.status) where.push(eq(disputes.status, query.status));
    if (query.flagged === 'true') where.push(eq(disputes.status, 'open'), lte(disputes.createdAt, flagBefore));
    if (query.flagged === 'false') where.push(or(sql`${disputes.status} <> 'open'`, sql`${disputes.createdAt} > ${flagBefore.toISOString()}::timestamptz`)!);
    const q = query.q?.trim();
    if (q) {
      const digits = /^№?\s*(\d{1,15})$/.exec(q);
      // Not a number: nothing matches (the queue is searched by order number only).
      where.push(digits ? eq(orders.number, Number(digits[1])) : sql`false`);
    }
    const filter = where.length ? and(...where) : undefined;
    const position = query.cursor ? keysetAfter(QUEUE, cursorPosition(query.cursor, 'queue', QUEUE)) : undefined;
    const [rows, total] = await Promise.all([
      this.records()
        .where(and(filter, position))
        .orderBy(...orderBy(QUEUE))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(disputes).innerJoin(orders, eq(orders.id, disputes.orderId)).where(filter).$dynamic()),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['queue', r.createdKey, r.dispute.id]);
    const chatIds = kept.flatMap((r) => (r.chatId ? [r.chatId] : []));
    const [files, unseen] = await Promise.all([
      filesByPaths(this.db, kept.flatMap((r) => r.dispute.files)),
      this.deps.chat.unseenIn(admin.id, chatIds),
    ]);
    return {
      result: kept.map((r) => ({
        ...presentDispute(fixAdmin(r), admin.id, files, now, flagDays),
        chat: { _id: r.chatId ?? '', unseen_messages: unseen.get(r.chatId ?? '') ?? 0 },
      })),
      total,
      next,
    };
  }

  /** GET /api/admin/disputes/{id}. */
  adminGet(admin: UserRow, id: string): Promise<Dispute> {
    return this.view(admin, id);
  }

  /**
   * What a dispute is called, if `user` may see it (disputePolicy: its parties and admins), else null: for the
   * appeals module's objection to a decision (`subject=dispute&object=<id>`).
   */
  async titleFor(user: UserRow, id: string): Promise<string | null> {
    if (!isUuid(id)) return null;
    const record = await this.record(id);
    if (!record || !disputePolicy.can(user, 'view', record.dispute)) return null;
    return `Спор по заказу №${record.order.number} «${record.order.title}»`;
  }

  /** Open disputes now (the admin home's figure). */
  async countOpen(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(disputes).where(eq(disputes.status, 'open'));
    return row?.n ?? 0;
  }

  /**
   * Whether the seller lost a dispute in the last 90 days: one decided with less than half of the price to them
   * (ADR 034). Seller levels (Профессионал) ask it.
   */
  async lostRecently(sellerId: string): Promise<boolean> {
    const since = new Date(this.deps.platform.clock.now().getTime() - LOST_DISPUTE_DAYS * DAY_MS);
    const [row] = await this.db
      .select({ id: disputes.id })
      .from(disputes)
      .innerJoin(orders, eq(orders.id, disputes.orderId))
      .where(and(eq(orders.sellerId, sellerId), eq(disputes.status, 'resolved'), lt(disputes.sellerPercent, LOST_BELOW_PERCENT), gte(disputes.resolvedAt, since)))
      .limit(1);
    return row !== undefined;
  }

  // -------------------------------------------------------------------------------------------------------
  // Commands
  // -------------------------------------------------------------------------------------------------------

  /** POST /api/disputes/: a party opens a dispute; the order freezes, the dispute's chat opens with both parties. */
  async create(user: UserRow, input: z.output<typeof createDisputeSchema>): Promise<Dispute> {
    // Checked before the transaction (they read through the pool): the caller's own uploads, as in chat.send.
    const files = await this.deps.chat.ownFilesOf(user.id, input.files);
    const { allowed } = await this.deps.limiter.hit(`disputes:open:${user.id}`, DISPUTES_PER_DAY, DAY_MS);
    if (!allowed) throw new HttpError(429, DISPUTE_MESSAGES.tooMany);
    await this.deps.settings.all();

    const id = await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const order = disputeOrderPolicy.authorize(user, 'open', await this.deps.orders.lockForDispute(ctx, input.order_id));
      if (order.status === 'disputed') throw new HttpError(409, DISPUTE_MESSAGES.alreadyOpen);
      if (order.status !== 'in_progress' && order.status !== 'delivered') throw new HttpError(409, DISPUTE_MESSAGES.notOpenable);
      const respondentId = user.id === order.customerId ? order.sellerId : order.customerId;
      const who = user.id === order.customerId ? 'Заказчик' : 'Исполнитель';
      await this.deps.orders.freezeForDispute(ctx, order, user.id, `${who} открыл спор по заказу. Заказ остановлен до решения арбитража.`);
      const [dispute] = await ctx.tx
        .insert(disputes)
        .values({ orderId: order.id, openedBy: user.id, respondentId, reason: input.reason, description: input.description, files, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() })
        .returning();
      // Without the order's id: that names the order's own chat wherever a chat is looked up by order.
      const chat = await this.deps.chat.openChat({ kind: 'dispute', memberIds: [user.id, respondentId], disputeId: dispute!.id }, ctx.tx);
      await this.deps.chat.postInTx(ctx, {
        chatId: chat.id,
        senderId: user.id,
        kind: 'system',
        message: `Спор по заказу №${order.number} «${order.title}».\n\nПричина: ${DISPUTE_REASON_LABELS[input.reason]}\n\n${input.description}`,
        files,
      });
      await this.tell(ctx, [respondentId], { number: order.number, title: order.title, event: 'opened', decision: null });
      ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: dispute!.id });
      return dispute!.id;
    });
    return this.view(user, id);
  }

  /** The dispute locked, then its order (the one order of locks of every dispute command). */
  private async lock(ctx: TxContext, id: string): Promise<DisputeRow | null> {
    const [row] = await ctx.tx.select().from(disputes).where(eq(disputes.id, id)).for('update');
    return row ?? null;
  }

  private async disputeChatId(ctx: TxContext, disputeId: string): Promise<string> {
    const [chat] = await ctx.tx
      .select({ id: chats.id })
      .from(chats)
      .where(and(eq(chats.disputeId, disputeId), eq(chats.kind, 'dispute')))
      .limit(1);
    return chat!.id;
  }

  /** DELETE /api/disputes/{id}: the opener withdraws it; the order returns to the state it froze (ADR 034). */
  async cancel(user: UserRow, id: string): Promise<Dispute> {
    await this.deps.settings.all();
    await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const dispute = disputePolicy.authorize(user, 'cancel', await this.lock(ctx, id));
      if (dispute.status !== 'open') throw new HttpError(409, DISPUTE_MESSAGES.notOpen);
      const order = (await this.deps.orders.lockForDispute(ctx, dispute.orderId))!;
      const now = ctx.clock.now();
      await this.deps.orders.unfreezeAfterDispute(ctx, order, user.id, now.getTime() - dispute.createdAt.getTime(), 'Спор отменён тем, кто его открыл. Работа по заказу продолжается.');
      await ctx.tx.update(disputes).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(disputes.id, id));
      await this.deps.chat.postInTx(ctx, { chatId: await this.disputeChatId(ctx, id), senderId: user.id, kind: 'system', message: 'Заявка отменена: спор закрыт без решения.' });
      await this.tell(ctx, [dispute.respondentId], { number: order.number, title: order.title, event: 'cancelled', decision: null });
      ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
    });
    return this.view(user, id);
  }

  /** Adds the admin to the dispute's chat; the first admin becomes the arbiter. Answers whether they were new there. */
  private async join(ctx: TxContext, admin: UserRow, dispute: DisputeRow): Promise<boolean> {
    const chatId = await this.disputeChatId(ctx, dispute.id);
    const added = await ctx.tx.insert(chatMembers).values({ chatId, userId: admin.id }).onConflictDoNothing().returning({ userId: chatMembers.userId });
    if (!dispute.adminId) await ctx.tx.update(disputes).set({ adminId: admin.id, updatedAt: ctx.clock.now() }).where(eq(disputes.id, dispute.id));
    if (added.length) {
      await this.deps.chat.postInTx(ctx, { chatId, senderId: admin.id, kind: 'system', message: `Администратор ${displayName(admin)} присоединился к спору.` });
    }
    return added.length > 0;
  }

  /** POST /api/admin/disputes/{id}/take: the admin joins the dispute's chat (to write in it). */
  async take(admin: UserRow, id: string): Promise<Dispute> {
    await this.deps.platform.withTx(userActor(admin), async (ctx) => {
      const dispute = await this.lock(ctx, id);
      if (!dispute) throw notFound(DISPUTE_MESSAGES.notFound);
      if (await this.join(ctx, admin, dispute)) {
        await audit(ctx.tx, { actorId: admin.id, action: 'dispute.take', targetType: 'dispute', targetId: id });
        ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
      }
    });
    return this.view(admin, id);
  }

  /**
   * POST /api/admin/disputes/{id}/resolve: refund, release or split by the seller's percent. The escrow settles in
   * this one transaction (OrderService.settleDispute); both parties hear of it. Under the dispute's row lock, so
   * of two admins deciding at once one decides and the other gets 409.
   */
  async resolve(admin: UserRow, id: string, input: z.output<typeof resolveDisputeSchema>): Promise<Dispute> {
    await this.deps.settings.all();
    await this.deps.platform.withTx(userActor(admin), async (ctx) => {
      const dispute = await this.lock(ctx, id);
      if (!dispute) throw notFound(DISPUTE_MESSAGES.notFound);
      if (dispute.status === 'resolved') throw new HttpError(409, DISPUTE_MESSAGES.alreadyResolved);
      if (dispute.status !== 'open') throw new HttpError(409, DISPUTE_MESSAGES.notOpen);
      const order = (await this.deps.orders.lockForDispute(ctx, dispute.orderId))!;
      const percent = input.seller_percent;
      const sellerAmount = Math.round((order.price * percent) / 100);
      const customerAmount = order.price - sellerAmount;
      const summary = decisionText(input.outcome, percent, sellerAmount, customerAmount, input.comment);
      const { commission } = await this.deps.orders.settleDispute(ctx, order, admin.id, sellerAmount, `Спор решён арбитражем. ${summary}`);
      const now = ctx.clock.now();
      await ctx.tx
        .update(disputes)
        .set({
          status: 'resolved',
          outcome: input.outcome,
          sellerPercent: percent,
          sellerAmount,
          customerAmount,
          commission,
          comment: input.comment,
          resolvedBy: admin.id,
          resolvedAt: now,
          adminId: dispute.adminId ?? admin.id,
          updatedAt: now,
        })
        .where(eq(disputes.id, id));
      // Lost: less than half of the price to the seller (ADR 034); Профессионал waits 90 days.
      if (percent < LOST_BELOW_PERCENT) await ctx.tx.update(users).set({ lostDisputeAt: now }).where(eq(users.id, order.sellerId));
      await this.join(ctx, admin, { ...dispute, adminId: dispute.adminId ?? admin.id });
      await this.deps.chat.postInTx(ctx, { chatId: await this.disputeChatId(ctx, id), senderId: admin.id, kind: 'system', message: `Решение по спору. ${summary}` });
      await this.tell(ctx, [order.customerId, order.sellerId], { number: order.number, title: order.title, event: 'resolved', decision: summary });
      await audit(ctx.tx, { actorId: admin.id, action: 'dispute.resolve', targetType: 'dispute', targetId: id, details: { outcome: input.outcome, sellerPercent: percent, sellerAmount, customerAmount, commission } });
      ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
    });
    return this.view(admin, id);
  }

  // -------------------------------------------------------------------------------------------------------
  // Helpers
  // -------------------------------------------------------------------------------------------------------

  /** The notification and letter of a dispute's event to these people, in the command's transaction. */
  private async tell(ctx: TxContext, to: string[], data: { number: number; title: string; event: DisputeLetterEvent; decision: string | null }) {
    const people = await ctx.tx
      .select({ id: users.id, email: users.email, name: users.name, preferences: users.preferences })
      .from(users)
      .where(inArray(users.id, to));
    for (const person of people) this.deps.letters.notify(ctx.outbox, person, 'dispute.event', data);
  }

  /**
   * new_dispute (the job's handler, after the commit): to the parties and every admin, the dispute's chat as each
   * sees it and its state. The client replaces the matching chat (SPEC §4) and refreshes the dispute.
   */
  async announce(disputeId: string): Promise<void> {
    const [row] = await this.db
      .select({ dispute: disputes, chat: chats })
      .from(disputes)
      .innerJoin(chats, and(eq(chats.disputeId, disputes.id), eq(chats.kind, 'dispute')))
      .where(eq(disputes.id, disputeId))
      .limit(1);
    if (!row) return;
    const admins = await this.db
      .select({ id: users.id })
      .from(users)
      .where(sql`'admin' = any(${users.roles})`);
    const to = [...new Set([row.dispute.openedBy, row.dispute.respondentId, ...admins.map((a) => a.id)])];
    for (const userId of to) {
      const [chat] = await this.deps.chat.chatsFor(userId, [row.chat]);
      if (chat) this.deps.realtime.emitToUsers([userId], SOCKET_EVENTS.newDispute, { chat, dispute_id: disputeId, status: row.dispute.status as DisputeStatus });
    }
  }
}

/** A left join's missing arbiter comes back as an object of nulls. */
function fixAdmin<T extends { admin: { id: string | null } | null }>(row: T): T & DisputeRecord {
  return { ...row, admin: row.admin?.id ? row.admin : null } as T & DisputeRecord;
}

/** The decision in words, with its amounts (the chat message, the letter, the notification's letter body). */
function decisionText(outcome: keyof typeof DISPUTE_OUTCOME_LABELS, percent: number, seller: number, customer: number, comment: string): string {
  const head =
    outcome === 'refund'
      ? `${DISPUTE_OUTCOME_LABELS.refund}: ${rubles(customer)} вернулись на баланс заказчика.`
      : outcome === 'release'
        ? `${DISPUTE_OUTCOME_LABELS.release}: ${rubles(seller)} (за вычетом комиссии) зачислены исполнителю.`
        : `${DISPUTE_OUTCOME_LABELS.split}: исполнителю ${percent}% — ${rubles(seller)} (за вычетом комиссии), заказчику ${100 - percent}% — ${rubles(customer)}.`;
  return comment ? `${head}\n\nКомментарий арбитра: ${comment}` : head;
}
