import { and, eq, sql } from 'drizzle-orm';
import { orders, type OrderExtra, type OrderRow } from '../../db/schema/money.ts';
import { HttpError } from '../../lib/http.ts';
import type { TxContext } from '../../platform/tx.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { ChatService } from '../chat/index.ts';
import { ORDER_MESSAGES } from '#contract/orders';

// The two steps of an order that other modules start (ADR 025): bids and the service page open an order, payments
// mark it paid. Both run inside the caller's transaction. The rest of the lifecycle is the orders module's own.

export interface OpenOrderDeps {
  settings: Pick<SettingsService, 'get'>;
  chat: Pick<ChatService, 'openChat'>;
}

export interface OpenOrderInput {
  customerId: string;
  sellerId: string;
  serviceId?: string | null;
  projectId?: string | null;
  bidId?: string | null;
  title: string;
  package?: string | null;
  extras?: OrderExtra[];
  /** Kopecks, package and extras included. */
  price: number;
  days: number;
  revisions: number;
}

/** A new order awaiting payment, with its workspace chat (both parties as members). */
export async function openOrder({ tx, clock }: TxContext, deps: OpenOrderDeps, input: OpenOrderInput): Promise<{ order: OrderRow; chatId: string }> {
  const now = clock.now();
  const [order] = await tx
    .insert(orders)
    .values({
      customerId: input.customerId,
      sellerId: input.sellerId,
      serviceId: input.serviceId ?? null,
      projectId: input.projectId ?? null,
      bidId: input.bidId ?? null,
      title: input.title,
      package: input.package ?? null,
      extras: input.extras ?? [],
      price: input.price,
      days: input.days,
      revisionsLeft: input.revisions,
      revisionsTotal: input.revisions,
      commissionBp: await deps.settings.get('orders.commissionBp', tx),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const chat = await deps.chat.openChat({ kind: 'order', memberIds: [input.customerId, input.sellerId], orderId: order!.id, serviceId: input.serviceId ?? null }, tx);
  return { order: order!, chatId: chat.id };
}

/**
 * awaiting_payment → in_progress: the deadline clock starts. Exactly once: a second call (another payment that
 * raced this one) finds no order awaiting payment and is refused with 409, rolling its transaction back.
 */
export async function markOrderPaid({ tx, clock }: TxContext, orderId: string): Promise<OrderRow> {
  const now = clock.now();
  const [order] = await tx
    .update(orders)
    .set({ status: 'in_progress', paidAt: now, deadlineAt: sql`${now.toISOString()}::timestamptz + make_interval(days => ${orders.days})`, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'awaiting_payment')))
    .returning();
  if (!order) throw new HttpError(409, ORDER_MESSAGES.notAwaitingPayment);
  return order;
}
