import { payments } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { requireBalance } from '../../ledger/index.ts';
import type { PayResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { escrow, receipt } from './escrow.ts';
import { payable } from './payable.ts';

/** Pays the order from the customer's available balance at once, into escrow. */
export async function payFromBalance(deps: PaymentContext, user: UserRow, orderId: string): Promise<PayResult> {
  return deps.platform.withTx(userActor(user), async (ctx) => {
    const { tx } = ctx;
    // The order's row lock first, then the account's (requireBalance): every payer takes them in this order.
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId));
    await requireBalance(tx, { kind: 'available', userId: user.id }, order.price);
    const now = ctx.clock.now();
    const [payment] = await tx
      .insert(payments)
      .values({ orderId: order.id, customerId: user.id, method: 'balance', status: 'succeeded', amount: order.price, currency: 'RUB', currencyAmount: order.price, paidAt: now, createdAt: now, updatedAt: now })
      .returning();
    await escrow(deps, ctx, order, user.id);
    await receipt(deps, ctx, order, payment!, false);
    return { payment_id: payment!.id, order_id: order.id, status: 'succeeded' as const, redirect_url: null };
  });
}
