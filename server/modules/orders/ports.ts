import { and, desc, eq, gte, isNotNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from './schema.ts';
import { people, type People } from '../users/index.ts';
import type { TxContext } from '../../platform/tx.ts';
import { completedSql } from './state.ts';
import { listedOrders } from './queries.ts';

// What the reviews module reads of orders (ADR 029), so that it never reads the orders table: an order's headline,
// its completion as a subquery of a review's order, and a party's recently completed orders. Conditions on the
// caller's own tables come in as functions of the order's id column.

/** An order's number and title (letters name the order by them). */
export async function orderHeadline(db: Db | TxContext['tx'], orderId: string): Promise<{ number: number; title: string } | undefined> {
  const [order] = await db.select({ number: orders.number, title: orders.title }).from(orders).where(eq(orders.id, orderId));
  return order;
}

/** When the order `orderId` (a column of the caller's query) was completed, as a subquery; null before. */
export const orderCompletedAt = (orderId: SQLWrapper) =>
  sql<Date | null>`(select ${orders.completedAt} from ${orders} where ${orders.id} = ${orderId})`.mapWith(orders.completedAt);

const customer = people('customer');
const seller = people('seller');
const personOf = (t: People) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

/**
 * The orders of `userId` (either side) completed and paid since `since`, newest first, at most `limit`, with both
 * parties; `where` narrows them and `flag` is answered per order, both by the caller's conditions on the order's id.
 */
export function completedOrdersOf(
  db: Db,
  userId: string,
  since: Date,
  { where, flag, limit }: { where: (orderId: SQLWrapper) => SQL; flag: (orderId: SQLWrapper) => SQL; limit: number },
) {
  return db
    .select({
      order: { id: orders.id, number: orders.number, title: orders.title, customerId: orders.customerId, serviceId: orders.serviceId, completedAt: orders.completedAt },
      customer: personOf(customer),
      seller: personOf(seller),
      flag: sql<boolean>`${flag(orders.id)}`,
    })
    .from(orders)
    .innerJoin(customer, eq(customer.id, orders.customerId))
    .innerJoin(seller, eq(seller.id, orders.sellerId))
    .where(and(listedOrders(), or(eq(orders.customerId, userId), eq(orders.sellerId, userId)), completedSql, isNotNull(orders.paidAt), gte(orders.completedAt, since), where(orders.id)))
    .orderBy(desc(orders.completedAt), desc(orders.id))
    .limit(limit);
}
