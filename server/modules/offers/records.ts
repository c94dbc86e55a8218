import { and, desc, eq, sql } from 'drizzle-orm';
import { offers, type OfferRow } from './schema.ts';
import { orderChatId } from '../chat/index.ts';
import { orderRefs } from '../orders/index.ts';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import type { UserRow } from '../users/index.ts';
import type { Offer } from '#contract/offers';

// The offers as the module reads them: an order chat's order (its parties, through the orders' read model), the
// offers in it, and one offer as a viewer sees it.

const chatOrder = orderRefs('chat_order');
const opened = orderRefs('opened_order');

/**
 * The order whose chat an offer is made in: a head or a one-stage order that has its chat (a service's unpaid draft
 * has none yet, a stage's chat is its head's). Null otherwise: nobody learns more of it here than of an unknown id.
 */
export async function chatOrderOf(db: Db | Tx, orderId: string) {
  const [row] = await db
    .select({
      id: chatOrder.id,
      number: chatOrder.number,
      customerId: chatOrder.customerId,
      sellerId: chatOrder.sellerId,
      headId: chatOrder.headId,
    })
    .from(chatOrder)
    .where(eq(chatOrder.id, orderId));
  // Read apart: drizzle leaves a one-table select's columns bare, which the chat's subquery would capture.
  const chatId = row && row.headId === null ? await orderChatId(db, orderId) : null;
  return row && chatId ? { ...row, chatId } : null;
}

/** The offer with its chat order, the row locked for a step when `lock`. */
export async function offerWithOrder(tx: Db | Tx, id: string, lock = false) {
  const query = tx.select().from(offers).where(eq(offers.id, id)).limit(1);
  const [offer] = lock ? await query.for('update') : await query;
  if (!offer) return null;
  const chatId = await orderChatId(tx, offer.orderId);
  return chatId ? { offer, order: { customerId: offer.customerId, sellerId: offer.sellerId, chatId } } : null;
}

/** An order chat's offers, newest first, with the order each accepted one opened and its first payable order. */
export async function offersOf(db: Db, orderId: string): Promise<(OfferRow & { payOrderId: string | null })[]> {
  const rows = await db
    .select()
    .from(offers)
    .where(eq(offers.orderId, orderId))
    .orderBy(desc(offers.createdAt), desc(offers.id));
  return Promise.all(rows.map(async (r) => ({ ...r, payOrderId: await payOrderOf(db, r.newOrderId) })));
}

/** The order to pay first of an order opened from an offer: its stage 1, or itself. */
export async function payOrderOf(db: Db | Tx, orderId: string | null): Promise<string | null> {
  if (!orderId) return null;
  const [first] = await db
    .select({ id: opened.id })
    .from(opened)
    .where(and(eq(opened.headId, orderId), sql`${opened.stage} = 1`));
  return first?.id ?? orderId;
}

export function presentOffer(r: OfferRow & { payOrderId: string | null }, viewer: UserRow): Offer {
  return {
    _id: r.id,
    order_id: r.orderId,
    title: r.title,
    description: r.description,
    price: r.price,
    days: r.days,
    stages: r.stages ?? null,
    status: r.status,
    change_comment: r.changeComment,
    new_order_id: r.newOrderId,
    pay_order_id: r.payOrderId,
    role: viewer.id === r.customerId ? 'customer' : viewer.id === r.sellerId ? 'seller' : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
