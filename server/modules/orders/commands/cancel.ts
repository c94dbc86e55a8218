import type { OrderRow } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { postTransfer } from '../../ledger/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { isOpenPaid } from '../state.ts';
import { isAwaitingPayment } from '#contract/order-states';
import { routeRefund } from '../refund-route.ts';
import { actorWord, announce, lockOrder, NO_PROPOSAL, otherSide, runTransition, updateOrder } from './transition.ts';

/**
 * POST /api/orders/{id}/cancel: by the rules of PRODUCT.md (the table's `cancel` rows, ADR 039: never the
 * customer alone once anything was delivered); a paid order's escrow goes back.
 */
export function cancelOrder(deps: OrderServiceDeps, user: UserRow, id: string, input: { reason: string | null }): Promise<void> {
  return runTransition(deps, user, id, 'cancel', async (ctx, order) => {
    // A stage not yet funded is dropped from the plan (ADR 065): no money moved, no agreement needed.
    if (order.headId && isAwaitingPayment(order)) {
      const reason = input.reason ? `${ORDER_MESSAGES.stageDropped}: ${input.reason}` : ORDER_MESSAGES.stageDropped;
      // The message says the drop itself; only the person's own words are added as its reason.
      await cancelNow(ctx, deps, order, user.id, reason, `${actorWord(order, user.id)} снял этап до оплаты.`, input.reason);
      return;
    }
    await cancelNow(ctx, deps, order, user.id, input.reason, `${actorWord(order, user.id)} отменил ${order.headId ? 'этап' : 'заказ'}.`);
  });
}

/**
 * → cancelled; the escrow of a paid order back to the customer's balance (`settle:<order>`), or to their card when
 * it was paid by card in a safe deal (ADR 051: escrow keeps it until the provider makes the refund).
 */
export async function cancelNow(
  ctx: TxContext,
  deps: Pick<OrderServiceDeps, 'chat' | 'letters' | 'refundRoute'>,
  order: OrderRow,
  actorId: string,
  reason: string | null,
  text: string,
  /** The reason the chat shows, when it differs from the one kept. */
  shownReason: string | null = reason,
): Promise<void> {
  const paid = isOpenPaid(order);
  const refund = paid ? await routeRefund(ctx, deps.refundRoute, order, order.price, `settle:${order.id}`, `Заказ №${order.number} отменён`) : null;
  const back = refund?.toCard ? ' Деньги возвращаются на карту заказчика.' : ' Деньги вернулись на баланс заказчика.';
  const updated = await updateOrder(ctx, order.id, { status: 'cancelled', cancelledAt: ctx.clock.now(), cancelledBy: actorId, cancelReason: reason, ...NO_PROPOSAL });
  await announce(ctx, deps, updated, actorId, {
    message: `${text}${paid ? back : ''}${shownReason ? `\n\nПричина: ${shownReason}` : ''}`,
    letter: { to: otherSide(order, actorId), event: 'cancelled', reason },
  });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  if (refund?.legs.length) {
    await ctx.writeQueued();
    const posted = await postTransfer(ctx.tx, {
      kind: 'refund',
      key: `settle:${order.id}`,
      orderId: order.id,
      description: `Заказ №${order.number} отменён`,
      legs: refund.legs,
    });
    if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
  }
}

/**
 * The card payment's safe deal ended before the order did (ADR 058): ЮKassa returned the money to the card itself,
 * and the order ends with it — cancelled by no one, its escrow's refund recorded by the refund route (which the
 * payments module then ties to ЮKassa's own refund), both sides told. False when the order is not open and paid.
 */
export async function cancelAtDealEnd(ctx: TxContext, deps: Pick<OrderServiceDeps, 'chat' | 'letters' | 'refundRoute'>, orderId: string): Promise<boolean> {
  const order = await lockOrder(ctx, orderId);
  if (!order || !isOpenPaid(order)) return false;
  const reason = ORDER_MESSAGES.dealExpired;
  const refund = await routeRefund(ctx, deps.refundRoute, order, order.price, `settle:${order.id}`, `Заказ №${order.number} отменён: истёк срок сделки`);
  const updated = await updateOrder(ctx, order.id, { status: 'cancelled', cancelledAt: ctx.clock.now(), cancelledBy: null, cancelReason: reason, ...NO_PROPOSAL });
  await announce(ctx, deps, updated, order.customerId, { message: `Заказ отменён. ${reason}.`, letter: { to: 'both', event: 'cancelled', reason } });
  if (refund.legs.length) {
    await postTransfer(ctx.tx, { kind: 'refund', key: `settle:${order.id}`, orderId: order.id, description: `Заказ №${order.number} отменён`, legs: refund.legs });
  }
  return true;
}
