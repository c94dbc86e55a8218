import { and, eq, sql } from 'drizzle-orm';
import type { TxContext } from '../../platform/tx.ts';
import { users } from './schema.ts';

// The facts other modules keep on a person's record (ADR 049), each written in the transaction of the fact itself,
// so that a counter never disagrees with what it counts: completed orders (orders), the rating (reviews), a lost
// dispute (disputes), the bids flag (bids). Only these columns; the rest of a person is the users module's own.

type Tx = TxContext['tx'];

/** A seller's order was completed. */
export async function countCompletedOrder(tx: Tx, sellerId: string): Promise<void> {
  await tx
    .update(users)
    .set({ completedOrders: sql`${users.completedOrders} + 1` })
    .where(eq(users.id, sellerId));
}

/** A seller's rating (mean × 100) and the count of reviews it is made of. */
export async function setSellerRating(tx: Tx, sellerId: string, rating: number, reviewsCount: number): Promise<void> {
  await tx.update(users).set({ rating, reviewsCount }).where(eq(users.id, sellerId));
}

/** A seller lost a dispute at `at` (Профессионал waits LOST_DISPUTE_DAYS). */
export async function markLostDispute(tx: Tx, sellerId: string, at: Date): Promise<void> {
  await tx.update(users).set({ lostDisputeAt: at }).where(eq(users.id, sellerId));
}

/** A bid arrived on one of the customer's projects. */
export async function flagBidsUnread(tx: Tx, customerId: string): Promise<void> {
  await tx.update(users).set({ bidsUnread: true }).where(eq(users.id, customerId));
}

/** The customer opened their bids; true when the flag was up. */
export async function clearBidsUnread(tx: Tx, customerId: string): Promise<boolean> {
  const cleared = await tx
    .update(users)
    .set({ bidsUnread: false })
    .where(and(eq(users.id, customerId), eq(users.bidsUnread, true)))
    .returning({ id: users.id });
  return cleared.length > 0;
}
