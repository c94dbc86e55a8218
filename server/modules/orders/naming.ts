import { eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { orders, type OrderRow } from './schema.ts';
import type { OrderName } from '#contract/order-name';

// How letters, notifications and finance lines name an order (ADR 065): a stage by its head's number and title
// with its own number and title. Other modules ask here, never reading the orders table themselves.

const head = alias(orders, 'head');

/** An order as named, with its seller (a finance line asks whose payment it was). */
export interface NamedOrder extends OrderName {
  id: string;
  sellerId: string;
}

const named = (r: { id: string; number: number; title: string; sellerId: string; stage: number | null; stageTitle: string | null; headNumber: number | null; headTitle: string | null }): NamedOrder => ({
  id: r.id,
  sellerId: r.sellerId,
  number: r.headNumber ?? r.number,
  title: r.headTitle ?? r.title,
  stage: r.stage !== null && r.headNumber !== null ? { number: r.stage, title: r.stageTitle ?? '' } : null,
});

/** These orders' names, by id. */
export async function orderNames(db: Db | Tx, orderIds: readonly string[]): Promise<Map<string, NamedOrder>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      title: orders.title,
      sellerId: orders.sellerId,
      stage: orders.stage,
      stageTitle: orders.stageTitle,
      headNumber: head.number,
      headTitle: head.title,
    })
    .from(orders)
    .leftJoin(head, eq(head.id, orders.headId))
    .where(inArray(orders.id, [...new Set(orderIds)]));
  return new Map(rows.map((r) => [r.id, named(r)]));
}

/** One order's name; a row at hand saves the read unless it is a stage (its head's number is needed). */
export async function orderNameOf(db: Db | Tx, order: string | Pick<OrderRow, 'id' | 'number' | 'title' | 'headId'>): Promise<OrderName> {
  if (typeof order !== 'string' && !order.headId) return { number: order.number, title: order.title, stage: null };
  const id = typeof order === 'string' ? order : order.id;
  const found = (await orderNames(db, [id])).get(id);
  if (!found) throw new Error(`orderNameOf: no order ${id}`);
  return { number: found.number, title: found.title, stage: found.stage };
}

/** An order's chat on the messages page (a stage's letters open its head's). */
export const orderChatPath = (chatId: string) => `/profile/messages?tab=orders&chat=${encodeURIComponent(chatId)}`;
