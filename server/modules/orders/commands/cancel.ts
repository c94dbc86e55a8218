import type { OrderRow } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { postTransfer } from '../../ledger/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { isOpenPaid } from '../state.ts';
import { refundLegs } from './settlement.ts';
import { actorWord, announce, NO_PROPOSAL, otherSide, runTransition, updateOrder } from './transition.ts';

/**
 * POST /api/orders/{id}/cancel: by the rules of PRODUCT.md (the table's `cancel` rows, ADR 039: never the
 * customer alone once anything was delivered); a paid order's escrow goes back.
 */
export function cancelOrder(deps: OrderServiceDeps, user: UserRow, id: string, input: { reason: string | null }): Promise<void> {
  return runTransition(deps, user, id, 'cancel', async (ctx, order) => {
    await cancelNow(ctx, deps, order, user.id, input.reason, `${actorWord(order, user.id)} отменил заказ.`);
  });
}

/** → cancelled; the escrow of a paid order back to the customer's balance (`settle:<order>`). */
export async function cancelNow(
  ctx: TxContext,
  deps: Pick<OrderServiceDeps, 'chat' | 'letters'>,
  order: OrderRow,
  actorId: string,
  reason: string | null,
  text: string,
): Promise<void> {
  const paid = isOpenPaid(order);
  const updated = await updateOrder(ctx, order.id, { status: 'cancelled', cancelledAt: ctx.clock.now(), cancelledBy: actorId, cancelReason: reason, ...NO_PROPOSAL });
  await announce(ctx, deps, updated, actorId, {
    message: `${text}${paid ? ' Деньги вернулись на баланс заказчика.' : ''}${reason ? `\n\nПричина: ${reason}` : ''}`,
    letter: { to: otherSide(order, actorId), event: 'cancelled', reason },
  });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025).
  if (paid) {
    const posted = await postTransfer(ctx.tx, {
      kind: 'refund',
      key: `settle:${order.id}`,
      orderId: order.id,
      description: `Заказ №${order.number} отменён`,
      legs: refundLegs(order, order.price),
    });
    if (!posted) throw new HttpError(409, ORDER_MESSAGES.cannotCancel);
  }
}
