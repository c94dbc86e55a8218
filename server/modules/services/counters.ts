import { eq, sql } from 'drizzle-orm';
import type { TxContext } from '../../platform/tx.ts';
import { services } from './schema.ts';

// The facts other modules keep on a service's record (ADR 049), each written in the transaction of the fact itself:
// its completed orders and the popularity they bring (orders), its rating (reviews).

type Tx = TxContext['tx'];

/** What one completed order adds to a service's popularity. */
const POPULARITY_PER_ORDER = 20;

/** An order of the service was completed. */
export async function countServiceOrder(tx: Tx, serviceId: string): Promise<void> {
  await tx
    .update(services)
    .set({ ordersCount: sql`${services.ordersCount} + 1`, popularity: sql`${services.popularity} + ${POPULARITY_PER_ORDER}` })
    .where(eq(services.id, serviceId));
}

/** A service's rating (mean × 100) and the count of reviews it is made of. */
export async function setServiceRating(tx: Tx, serviceId: string, rating: number, reviewsCount: number): Promise<void> {
  await tx.update(services).set({ rating, reviewsCount }).where(eq(services.id, serviceId));
}
