import { asc, eq } from 'drizzle-orm';
import { orders, type OrderRow } from './schema.ts';
import type { Tx, TxContext } from '../../platform/tx.ts';
import type { Db } from '../../db/client.ts';
import { countCompletion } from './commands/settlement.ts';
import { isCancelled, isCompleted, isDelivered, isDisputed, isSettled } from '#contract/order-states';
import { ORDER_MESSAGES } from '#contract/orders';

// Orders in stages (ADR 065): a head's state is a roll-up of its stages', recomputed in the transaction of every
// stage's change (updateOrder, markOrderPaid), never set by hand.

/** What the roll-up reads of a stage. */
export type StageFacts = Pick<
  OrderRow,
  | 'stage'
  | 'status'
  | 'paidAt'
  | 'deadlineAt'
  | 'deliveredAt'
  | 'completedAt'
  | 'cancelledAt'
  | 'cancelledBy'
  | 'cancelReason'
>;

/** What the roll-up writes on the head. */
export type HeadState = Pick<
  OrderRow,
  'status' | 'paidAt' | 'deadlineAt' | 'deliveredAt' | 'completedAt' | 'cancelledAt' | 'cancelledBy' | 'cancelReason'
>;

const latest = (dates: Array<Date | null>): Date | null =>
  dates.reduce<Date | null>((max, d) => (d !== null && (max === null || d > max) ? d : max), null);
const earliest = (dates: Array<Date | null>): Date | null =>
  dates.reduce<Date | null>((min, d) => (d !== null && (min === null || d < min) ? d : min), null);

/**
 * The head's status and dates from its stages (ADR 065's table, first matching row wins): every stage cancelled →
 * cancelled; all settled with one completed at least → completed; any disputed → disputed; the current stage (the
 * first neither completed nor cancelled) delivered → delivered; any stage ever funded → in_progress; else
 * awaiting_payment. paid_at is the first payment; deadline_at and delivered_at the current stage's (the last
 * stage's once all are settled); completed_at and cancelled_at the last stage's, when the head is so.
 */
export function headState(stages: readonly StageFacts[]): HeadState {
  if (stages.length === 0) throw new Error('headState: a head without stages');
  const byNumber = [...stages].sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0));
  const current = byNumber.find((s) => !isSettled(s)) ?? null;
  const shown = current ?? byNumber[byNumber.length - 1]!;
  const paidAt = earliest(byNumber.map((s) => s.paidAt));
  const status: OrderRow['status'] = byNumber.every(isCancelled)
    ? 'cancelled'
    : byNumber.every(isSettled)
      ? 'completed'
      : byNumber.some(isDisputed)
        ? 'disputed'
        : current && isDelivered(current)
          ? 'delivered'
          : paidAt !== null
            ? 'in_progress'
            : 'awaiting_payment';
  const lastCancelled = [...byNumber]
    .filter(isCancelled)
    .sort((a, b) => (a.cancelledAt?.getTime() ?? 0) - (b.cancelledAt?.getTime() ?? 0))
    .pop();
  const cancelled = status === 'cancelled';
  return {
    status,
    paidAt,
    deadlineAt: shown.deadlineAt,
    deliveredAt: shown.deliveredAt,
    completedAt: status === 'completed' ? latest(byNumber.filter(isCompleted).map((s) => s.completedAt)) : null,
    cancelledAt: cancelled ? latest(byNumber.map((s) => s.cancelledAt)) : null,
    cancelledBy: cancelled ? (lastCancelled?.cancelledBy ?? null) : null,
    cancelReason: cancelled ? (lastCancelled?.cancelReason ?? null) : null,
  };
}

/** The head `headId` brought up to its stages, in the caller's transaction (after any stage's change). */
export async function rollUp(ctx: TxContext, headId: string): Promise<OrderRow> {
  // Every path locks the changed stage, then the head: two stages changing at once take turns here, and the later
  // reads the earlier's committed stage (the stages are read after the head's lock is held).
  const [head] = await ctx.tx.select().from(orders).where(eq(orders.id, headId)).for('update');
  if (!head) throw new Error(`rollUp: no order ${headId}`);
  const stages = await ctx.tx.select().from(orders).where(eq(orders.headId, headId)).orderBy(asc(orders.stage));
  const [row] = await ctx.tx
    .update(orders)
    .set({ ...headState(stages), statusBeforeDispute: null, updatedAt: ctx.clock.now() })
    .where(eq(orders.id, headId))
    .returning();
  // The seller's completed orders count the whole job once (completed is final: every stage settled).
  if (isCompleted(row!) && !isCompleted(head)) await countCompletion(ctx, row!);
  return row!;
}

/** What the funding order reads of a head's stages. */
export type FundingFacts = Pick<OrderRow, 'stage' | 'stageTitle' | 'paidAt' | 'status'>;

/**
 * Why stage `n` may not be funded yet: the first earlier stage that was neither funded nor dropped (ADR 065: the
 * work goes in the agreed order; funding ahead of the work is fine). Null when it may.
 */
export function fundingRefusal(stages: readonly FundingFacts[], n: number): string | null {
  const waiting = stages
    .filter((s) => (s.stage ?? 0) < n && s.paidAt === null && !isCancelled(s))
    .sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0))[0];
  return waiting ? ORDER_MESSAGES.fundEarlierStage(waiting.stage ?? 0, waiting.stageTitle ?? '') : null;
}

/** A head's stages, in order (the funding order and the presenter read them). */
export function stagesOf(db: Db | Tx, headId: string) {
  return db.select().from(orders).where(eq(orders.headId, headId)).orderBy(asc(orders.stage));
}
