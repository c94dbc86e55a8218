import type { OrderRow } from '../schema.ts';
import { HttpError } from '../../../lib/http.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { postTransfer } from '../../ledger/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { autoAcceptDue, scheduleAutoAccept } from '../jobs.ts';
import { isDelivered, isDisputed, isOpenPaid } from '../state.ts';
import { countCompletion, releaseLegs } from './settlement.ts';
import { routeRefund } from '../refund-route.ts';
import { announce, NO_PROPOSAL, updateOrder } from './transition.ts';

// Disputes (ADR 034): the disputes module freezes, unfreezes and settles an order through these, in its
// transaction; the order's state, chat message and order_updated stay this module's.

/** in_progress | delivered → disputed: every step, cancellation and the auto-accept wait until it ends. */
export async function freezeForDispute(ctx: TxContext, deps: OrderServiceDeps, order: OrderRow, actorId: string, text: string): Promise<OrderRow> {
  if (!isOpenPaid(order)) throw new HttpError(409, ORDER_MESSAGES.notDisputable);
  const updated = await updateOrder(ctx, order.id, { status: 'disputed', statusBeforeDispute: order.status, ...NO_PROPOSAL });
  await announce(ctx, deps, updated, actorId, { message: text });
  return updated;
}

/**
 * A cancelled dispute: the order returns to the state it froze. Both clocks were paused while disputed: the
 * customer's review time of a delivered order (ADR 034) resumes with what was left, and the auto-accept job is
 * scheduled again; the seller's deadline moves on by the dispute's time (ADR 039), since the seller could not
 * deliver meanwhile — else a dispute withdrawn after the deadline would make the seller "late".
 */
export async function unfreezeAfterDispute(ctx: TxContext, deps: OrderServiceDeps, order: OrderRow, actorId: string, pausedMs: number, text: string): Promise<OrderRow> {
  if (!isDisputed(order) || !order.statusBeforeDispute) throw new HttpError(409, ORDER_MESSAGES.notDisputed);
  const back = { status: order.statusBeforeDispute };
  const paused = Math.max(0, pausedMs);
  const later = (d: Date | null) => (d ? new Date(d.getTime() + paused) : null);
  const deliveredAt = isDelivered(back) ? later(order.deliveredAt) : order.deliveredAt;
  const updated = await updateOrder(ctx, order.id, { status: back.status, statusBeforeDispute: null, deliveredAt, deadlineAt: later(order.deadlineAt) });
  if (isDelivered(back) && deliveredAt) scheduleAutoAccept(ctx, order.id, await autoAcceptDue(ctx, deps.settings, deliveredAt));
  await announce(ctx, deps, updated, actorId, { message: text });
  return updated;
}

/**
 * An admin's decision on a disputed order (ADR 034): `sellerAmount` kopecks of the escrow go to the seller as a
 * completion settles them (commission, referral rewards), the rest back to the customer's balance, in the
 * caller's one transaction. Some money to the seller completes the order; none cancels it.
 */
export async function settleDispute(
  ctx: TxContext,
  deps: OrderServiceDeps,
  order: OrderRow,
  actorId: string,
  sellerAmount: number,
  text: string,
): Promise<{ commission: number; toCard: boolean }> {
  if (!isDisputed(order)) throw new HttpError(409, ORDER_MESSAGES.notDisputed);
  if (!Number.isInteger(sellerAmount) || sellerAmount < 0 || sellerAmount > order.price) throw new HttpError(400, ORDER_MESSAGES.badShare);
  const now = ctx.clock.now();
  const refund = order.price - sellerAmount;
  const completed = sellerAmount > 0;
  const updated = await updateOrder(
    ctx,
    order.id,
    completed
      ? { status: 'completed', completedAt: now, statusBeforeDispute: null }
      : { status: 'cancelled', cancelledAt: now, cancelledBy: actorId, cancelReason: text, statusBeforeDispute: null },
  );
  const release = completed ? await releaseLegs(ctx, deps, order, sellerAmount) : { legs: [], commission: 0 };
  if (completed) await countCompletion(ctx, order);
  await announce(ctx, deps, updated, actorId, { message: text });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025). Two transfers of one
  // transaction when split, so that each side reads as what it is (a payment for the order, a refund). What is queued
  // so far is written before it.
  await ctx.writeQueued();
  if (completed) {
    const posted = await postTransfer(ctx.tx, { kind: 'release', key: `settle:${order.id}`, orderId: order.id, description: `Заказ №${order.number}: решение по спору`, legs: release.legs });
    if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
  }
  // Paid by card in a safe deal, the customer's part goes back to the card: escrow keeps it until then (ADR 051).
  const key = completed ? `settle:${order.id}:refund` : `settle:${order.id}`;
  const description = `Заказ №${order.number}: возврат по решению спора`;
  const back = refund > 0 ? await routeRefund(ctx, deps.refundRoute, order, refund, key, description) : { toCard: false, legs: [] };
  if (back.legs.length) {
    const posted = await postTransfer(ctx.tx, { kind: 'refund', key, orderId: order.id, description, legs: back.legs });
    if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
  }
  return { commission: release.commission, toCard: back.toCard };
}
