import { payments } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { requireBalance } from '../../ledger/index.ts';
import type { PayResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { escrowTransfer, receipt } from './escrow.ts';
import { payable } from './payable.ts';

/** Pays the order from the customer's available balance at once, into escrow. */
export async function payFromBalance(deps: PaymentContext, user: UserRow, orderId: string): Promise<PayResult> {
  return deps.platform.withTx(userActor(user), async (ctx) => {
    const { tx } = ctx;
    // The order's row lock first, then the ledger's (requireBalance): every payer takes them in this order.
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId));
    const account = { kind: 'available', userId: user.id } as const;
    await requireBalance(tx, account, order.price, { lock: false });
    const now = ctx.clock.now();
    const [payment] = await tx
      .insert(payments)
      .values({ orderId: order.id, customerId: user.id, method: 'balance', status: 'succeeded', amount: order.price, currency: 'RUB', currencyAmount: order.price, paidAt: now, createdAt: now, updatedAt: now })
      .returning();
    await deps.orders.markPaid(ctx, order);
    await receipt(deps, ctx, order, payment!, false);
    // The ledger last: the chain's head and the account are locked from here to the commit, not for the whole
    // command (ADR 025; locked first, they cost a quarter of the payments per second under load). The balance is
    // checked again under the lock: another payment of the same customer may have spent it meanwhile. What is queued
    // so far (the chat's notifications, the receipt) is written before it.
    await ctx.writeQueued();
    await requireBalance(tx, account, order.price);
    await escrowTransfer(ctx, order, user.id);
    return { payment_id: payment!.id, order_id: order.id, status: 'succeeded' as const, redirect_url: null };
  });
}
