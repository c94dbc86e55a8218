import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { orders } from './schema.ts';

/**
 * The orders the person is a party of, for their personal-data export (ADR 052): their side, the terms and the
 * dates; the other party only as an id, nothing of their data.
 */
export function ordersOfPerson(db: Db, userId: string) {
  return db
    .select({
      id: orders.id,
      side: sql<'customer' | 'seller'>`case when ${orders.customerId} = ${userId} then 'customer' else 'seller' end`,
      title: orders.title,
      price: orders.price,
      days: orders.days,
      status: orders.status,
      paidAt: orders.paidAt,
      completedAt: orders.completedAt,
      cancelledAt: orders.cancelledAt,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(or(eq(orders.customerId, userId), eq(orders.sellerId, userId)))
    .orderBy(orders.createdAt);
}

/** The person's orders still under way (paid, not settled), and those of them in a dispute: an account with any stays. */
export async function openOrdersOf(db: Db | Tx, userId: string): Promise<{ open: number; disputed: number }> {
  const [row] = await db
    .select({
      open: sql<number>`count(*) filter (where ${orders.status} in ('in_progress', 'delivered', 'disputed'))`.mapWith(Number),
      disputed: sql<number>`count(*) filter (where ${orders.status} = 'disputed')`.mapWith(Number),
    })
    .from(orders)
    .where(or(eq(orders.customerId, userId), eq(orders.sellerId, userId)));
  return row ?? { open: 0, disputed: 0 };
}
