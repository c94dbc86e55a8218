import type { OrderRow } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { postTransfer } from '../../ledger/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { autoAcceptDue, scheduleAutoAccept } from '../jobs.ts';
import { isDelivered } from '../state.ts';
import { countCompletion, releaseLegs } from './settlement.ts';
import { announce, jobWord, lockOrder, NO_PROPOSAL, runTransition, updateOrder } from './transition.ts';

// A delivery accepted: by the customer, or by the clock when they do not answer (ADR 025).

/** POST /api/orders/{id}/accept: the customer accepts; delivered → completed, the escrow settles to the seller. */
export function acceptOrder(deps: OrderServiceDeps, user: UserRow, id: string): Promise<void> {
  return runTransition(deps, user, id, 'accept', async (ctx, order) => {
    await complete(ctx, deps, order, user.id, false);
  });
}

/** The auto-accept job: a delivered order nobody answered in time is completed; anything else is left alone. */
export async function autoAcceptOrder(ctx: TxContext, deps: OrderServiceDeps, orderId: string): Promise<void> {
  const order = await lockOrder(ctx, orderId);
  if (!order || !isDelivered(order) || !order.deliveredAt) return;
  const due = await autoAcceptDue(ctx, deps.settings, order.deliveredAt);
  // Delivered again after a revision (this job's key was still pending then): wait for the latest delivery.
  if (ctx.clock.now() < due) {
    scheduleAutoAccept(ctx, orderId, due);
    return;
  }
  await complete(ctx, deps, order, order.customerId, true);
}

/** delivered → completed: the settlement of ADR 025 (seller, revenue, referral rewards), counters, announcements. */
async function complete(ctx: TxContext, deps: OrderServiceDeps, order: OrderRow, actorId: string, automatic: boolean): Promise<void> {
  const now = ctx.clock.now();
  const updated = await updateOrder(ctx, order.id, { status: 'completed', completedAt: now, ...NO_PROPOSAL });
  const { legs } = await releaseLegs(ctx, deps, order, order.price);
  await countCompletion(ctx, order);
  await announce(ctx, deps, updated, actorId, {
    message: automatic
      ? `${jobWord(order, true)} принят автоматически: заказчик не ответил вовремя. Оплата зачислена исполнителю.`
      : `Заказчик принял работу. ${jobWord(order, true)} завершён, оплата зачислена исполнителю.`,
    letter: { to: automatic ? 'both' : 'seller', event: automatic ? 'autoCompleted' : 'completed' },
  });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  await ctx.writeQueued();
  const posted = await postTransfer(ctx.tx, { kind: 'release', key: `settle:${order.id}`, orderId: order.id, description: `Заказ №${order.number} завершён`, legs });
  if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
}
