import { and, eq, sql } from 'drizzle-orm';
import { orders, type OrderRow } from '../schema.ts';
import { momentParam, statement } from '../../../db/prepared.ts';
import { HttpError } from '../../../lib/http.ts';
import { moscowDateTime } from '../../../lib/text.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { openOrderChat } from '../../chat/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { awaitingPaymentSql } from '../state.ts';
import { announce, jobWord, stageChanged } from './transition.ts';

/**
 * awaiting_payment → in_progress, in the payment's transaction (the payments module's step); the deadline clock
 * starts. A service's order reaches its seller now (ADR 042): its chat opens, and the seller's letter is the one
 * of a new order.
 */
export async function markOrderPaid(ctx: TxContext, deps: Pick<OrderServiceDeps, 'chat' | 'letters'>, orderId: string): Promise<OrderRow> {
  const order = await startClock(ctx, orderId);
  // Its workspace chat, opened once: a draft's now that it is paid. A stage's chat is its head's (ADR 065).
  const chatId = order.headId ? undefined : await openOrderChat(ctx.tx, order);
  await announce(ctx, deps, order, order.customerId, {
    chatId,
    message: `${jobWord(order, true)} оплачен, деньги зарезервированы. Исполнитель приступает к работе; срок — ${moscowDateTime(order.deadlineAt!)}.`,
    letter: { to: 'seller', event: order.bidId || order.headId ? 'paid' : 'created' },
  });
  return order;
}

/**
 * The state change, exactly once: a second call (another payment that raced this one) finds no order awaiting
 * payment and is refused with 409, rolling its transaction back.
 */
async function startClock(ctx: TxContext, orderId: string): Promise<OrderRow> {
  const [order] = await paid(ctx.tx).execute({ id: orderId, at: ctx.clock.now().toISOString() });
  if (!order) throw new HttpError(409, ORDER_MESSAGES.notAwaitingPayment);
  await stageChanged(ctx, order);
  return order;
}

/** The state change of every payment, built once (server/db/prepared.ts); `at` is the moment, as ISO text. */
const at = momentParam('at');
const paid = statement((db) =>
  db
    .update(orders)
    .set({
      status: 'in_progress',
      paidAt: at,
      deadlineAt: sql`${at} + make_interval(days => ${orders.days})`,
      updatedAt: at,
    })
    .where(and(eq(orders.id, sql.placeholder('id')), awaitingPaymentSql))
    .returning()
    .prepare('order_paid'),
);
