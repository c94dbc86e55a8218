import { and, desc, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { disputes } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { isUuid } from '../../lib/text.ts';
import { filesByPaths } from '../../platform/files.ts';
import { LOST_DISPUTE_DAYS, cursorPosition, keysetAfter, orderBy, page, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal } from '../../platform/listing/totals.ts';
import type { AdminDisputeRow, adminDisputesQuerySchema, Dispute, myDisputesQuerySchema } from '#contract/disputes';
import { DAY_MS, type DisputeServiceDeps } from './deps.ts';
import { disputePolicy } from './policy.ts';
import { disputedTitle, presentDispute } from './presenter.ts';
import { disputedOrder, disputeRecord, disputeRecords, fixAdmin, presentDisputes } from './records.ts';

// The disputes' lists (the parties' own, the admins' queue) and what other modules ask of them.

/** A seller loses a dispute decided with less than this share of the price (ADR 034). */
export const LOST_BELOW_PERCENT = 50;

/** The admin queue: oldest first (the longest waiting on top). */
const QUEUE: readonly SortKey[] = [
  { expr: disputes.createdAt, dir: 'asc', kind: 'timestamptz' },
  { expr: disputes.id, dir: 'asc', kind: 'uuid' },
];

/** GET /api/disputes/my: the disputes the caller opened or answers, newest first. */
export async function myDisputes(deps: DisputeServiceDeps, user: UserRow, query: z.output<typeof myDisputesQuerySchema>): Promise<{ result: Dispute[]; total: number }> {
  const where = and(or(eq(disputes.openedBy, user.id), eq(disputes.respondentId, user.id)), query.status ? eq(disputes.status, query.status) : undefined);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    disputeRecords(deps.db)
      .where(where)
      .orderBy(desc(disputes.createdAt), desc(disputes.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ total: sql<number>`count(*)::int` }).from(disputes).where(where),
  ]);
  return { result: await presentDisputes(deps, user, rows.map(fixAdmin)), total };
}

/** The queue's filter: by state, the 7-day flag, or an order's number. */
function queueFilter(query: z.output<typeof adminDisputesQuerySchema>, flagBefore: Date): SQL | undefined {
  const where: SQL[] = [];
  if (query.status) where.push(eq(disputes.status, query.status));
  if (query.flagged === 'true') where.push(eq(disputes.status, 'open'), lte(disputes.createdAt, flagBefore));
  if (query.flagged === 'false') where.push(or(sql`${disputes.status} <> 'open'`, sql`${disputes.createdAt} > ${flagBefore.toISOString()}::timestamptz`)!);
  const q = query.q?.trim();
  if (q) {
    const digits = /^№?\s*(\d{1,15})$/.exec(q);
    // Not a number: nothing matches (the queue is searched by order number only).
    where.push(digits ? eq(disputedOrder.shownNumber, Number(digits[1])) : sql`false`);
  }
  return where.length ? and(...where) : undefined;
}

/** GET /api/admin/disputes: the queue, oldest first; by state, the 7-day flag, or an order's number. */
export async function adminListDisputes(
  deps: DisputeServiceDeps,
  admin: UserRow,
  query: z.output<typeof adminDisputesQuerySchema>,
): Promise<{ result: AdminDisputeRow[]; total: number; next: string | null }> {
  const { db } = deps;
  const flagDays = await deps.settings.get('disputes.flagDays');
  const now = deps.platform.clock.now();
  const filter = queueFilter(query, new Date(now.getTime() - flagDays * DAY_MS));
  const position = query.cursor ? keysetAfter(QUEUE, cursorPosition(query.cursor, 'queue', QUEUE)) : undefined;
  const [rows, total] = await Promise.all([
    disputeRecords(db)
      .where(and(filter, position))
      .orderBy(...orderBy(QUEUE))
      .limit(query.limit + 1),
    cappedTotal(db, db.select({ one: sql`1` }).from(disputes).innerJoin(disputedOrder, eq(disputedOrder.id, disputes.orderId)).where(filter).$dynamic()),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['queue', r.createdKey, r.dispute.id]);
  const chatIds = kept.flatMap((r) => (r.chatId ? [r.chatId] : []));
  const [files, unseen] = await Promise.all([filesByPaths(db, kept.flatMap((r) => r.dispute.files)), deps.chat.unseenIn(admin.id, chatIds)]);
  return {
    result: kept.map((r) => {
      const unseenMessages = unseen.get(r.chatId ?? '') ?? 0;
      return {
        ...presentDispute(fixAdmin(r), admin.id, files, now, flagDays),
        unseen_messages: unseenMessages,
        chat: { _id: r.chatId ?? '', unseen_messages: unseenMessages },
      };
    }),
    total,
    next,
  };
}

/**
 * What a dispute is called, if `user` may see it (disputePolicy: its parties and admins), else null: for the
 * appeals module's objection to a decision (`subject=dispute&object=<id>`).
 */
export async function disputeTitleFor(db: DisputeServiceDeps['db'], user: UserRow, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const record = await disputeRecord(db, id);
  if (!record || !disputePolicy.can(user, 'view', record.dispute)) return null;
  return `Спор по заказу №${record.order.number} «${disputedTitle(record.order)}»`;
}

/** Open disputes now (the admin home's figure). */
export async function countOpenDisputes(db: DisputeServiceDeps['db']): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(disputes).where(eq(disputes.status, 'open'));
  return row?.n ?? 0;
}

/**
 * Whether the seller lost a dispute in the last 90 days: one decided with less than half of the price to them
 * (ADR 034). Seller levels (Профессионал) ask it.
 */
export async function lostDisputeRecently(deps: DisputeServiceDeps, sellerId: string): Promise<boolean> {
  const since = new Date(deps.platform.clock.now().getTime() - LOST_DISPUTE_DAYS * DAY_MS);
  const [row] = await deps.db
    .select({ id: disputes.id })
    .from(disputes)
    .innerJoin(disputedOrder, eq(disputedOrder.id, disputes.orderId))
    .where(and(eq(disputedOrder.sellerId, sellerId), eq(disputes.status, 'resolved'), lt(disputes.sellerPercent, LOST_BELOW_PERCENT), gte(disputes.resolvedAt, since)))
    .limit(1);
  return row !== undefined;
}
