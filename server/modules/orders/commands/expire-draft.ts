import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import type { OrderServiceDeps } from '../deps.ts';
import { draftExpiryDue, scheduleDraftExpiry } from '../jobs.ts';
import { isAwaitingPayment, isDraft } from '../state.ts';
import { announce, lockOrder, updateOrder } from './transition.ts';

/**
 * The draft job: a service's order still unpaid orders.draftHours after it was made is cancelled. Quietly: no
 * letter, no notification; its customer's list shows it cancelled as not paid in time (ADR 042).
 */
export async function expireDraft(ctx: TxContext, deps: OrderServiceDeps, orderId: string): Promise<void> {
  const order = await lockOrder(ctx, orderId);
  if (!order || !isAwaitingPayment(order) || !isDraft(order)) return;
  const due = await draftExpiryDue(ctx, deps.settings, order.createdAt);
  // The operator made the period longer meanwhile: wait for it.
  if (ctx.clock.now() < due) {
    scheduleDraftExpiry(ctx, orderId, due);
    return;
  }
  const updated = await updateOrder(ctx, order.id, { status: 'cancelled', cancelledAt: ctx.clock.now(), cancelledBy: null, cancelReason: ORDER_MESSAGES.draftExpired });
  await announce(ctx, deps, updated, order.customerId, { message: '' });
}
