import { sql } from 'drizzle-orm';
import { payments } from '../schema.ts';
import { momentParam, statement } from '../../../db/prepared.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { isOverdraft, requireBalance } from '../../ledger/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { LEDGER_MESSAGES } from '#contract/money';
import type { PayResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { escrowTransfer, receipt } from './escrow.ts';
import { payable } from './payable.ts';

/** The payment's row, built once (server/db/prepared.ts): paid in rubles from the balance, at `at` (ISO text). */
const at = momentParam('at');
const balancePayment = statement((db) =>
  db
    .insert(payments)
    .values({
      orderId: sql.placeholder('orderId'),
      customerId: sql.placeholder('customerId'),
      method: 'balance',
      status: 'succeeded',
      amount: sql.placeholder('amount'),
      currency: 'RUB',
      currencyAmount: sql.placeholder('amount'),
      paidAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .prepare('payment_from_balance'),
);

/** Pays the order from the customer's available balance at once, into escrow. */
export async function payFromBalance(deps: PaymentContext, user: UserRow, orderId: string): Promise<PayResult> {
  return deps.platform.withTx(userActor(user), async (ctx) => {
    const { tx } = ctx;
    // The order's row lock first, then the ledger's (its entries): every payer takes them in this order. The balance
    // is looked at without a lock, for a refusal before any other step.
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId));
    const account = { kind: 'available', userId: user.id } as const;
    await requireBalance(tx, account, order.price, { lock: false });
    const [payment] = await balancePayment(tx).execute({ orderId: order.id, customerId: user.id, amount: order.price, at: ctx.clock.now().toISOString() });
    await deps.orders.markPaid(ctx, order);
    await receipt(deps, ctx, order, payment!, false, user);
    // The ledger last: its entries lock the chain's head (and then the accounts) from here to the commit, not for
    // the whole command (ADR 025; locked first, they cost a quarter of the payments per second under load). What is
    // queued so far (the chat's notifications, the receipt) is written before. Another payment of the same customer
    // may have spent the balance since the look above: the database's no-overdraft CHECK refuses this transfer
    // then, answered as the same 409.
    await ctx.writeQueued();
    await escrowTransfer(ctx, order, user.id).catch((error: unknown) => {
      throw isOverdraft(error) ? new HttpError(409, LEDGER_MESSAGES.insufficientFunds) : error;
    });
    return { payment_id: payment!.id, order_id: order.id, status: 'succeeded' as const, redirect_url: null };
  });
}
