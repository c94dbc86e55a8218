import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { offers } from './schema.ts';
import { LIVE_OFFER_STATUSES } from '#contract/offers';


/**
 * The offers the person made or was made, for their personal-data export (ADR 052): the seller's words are theirs,
 * and so is the change the customer asked for; each side's text only its author's.
 */
export async function offersOfPerson(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(offers)
    .where(or(eq(offers.sellerId, userId), eq(offers.customerId, userId)))
    .orderBy(offers.createdAt);
  return rows.map((o) => {
    const made = o.sellerId === userId;
    return {
      id: o.id,
      orderId: o.orderId,
      side: made ? ('seller' as const) : ('customer' as const),
      title: o.title,
      ...(made ? { description: o.description } : { changeComment: o.changeComment }),
      price: o.price,
      days: o.days,
      stages: o.stages,
      status: o.status,
      newOrderId: o.newOrderId,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
    };
  });
}

/**
 * A deleted account's offers (ADR 052, 066): a live one is withdrawn, the seller's description and the customer's
 * change request lose their words. Titles and amounts stay, like an order's.
 */
export async function eraseOffersOf(tx: Tx, userId: string) {
  const now = new Date();
  const mine = or(eq(offers.sellerId, userId), eq(offers.customerId, userId));
  await tx
    .update(offers)
    .set({ status: 'withdrawn', updatedAt: now })
    .where(and(mine, inArray(offers.status, [...LIVE_OFFER_STATUSES])));
  await tx.update(offers).set({ description: '', updatedAt: now }).where(eq(offers.sellerId, userId));
  await tx
    .update(offers)
    .set({ changeComment: null, updatedAt: now })
    .where(and(eq(offers.customerId, userId), isNotNull(offers.changeComment)));
}
