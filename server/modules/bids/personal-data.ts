import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { bids } from './schema.ts';
import { uncountBid } from '../projects/index.ts';

/** The bids the person placed, with their words and stages, for their personal-data export (ADR 052). */
export function bidsPlacedBy(db: Db, userId: string) {
  return db
    .select({
      id: bids.id,
      projectId: bids.projectId,
      price: bids.price,
      days: bids.days,
      comment: bids.comment,
      stages: bids.stages,
      status: bids.status,
      createdAt: bids.createdAt,
      updatedAt: bids.updatedAt,
    })
    .from(bids)
    .where(eq(bids.sellerId, userId))
    .orderBy(bids.createdAt);
}

/**
 * A deleted account's bids lose their words (ADR 052); a live one is withdrawn, as nobody is left to do the work.
 * The amounts and stages' titles stay, like an order's.
 */
export async function eraseBidsOf(tx: Tx, userId: string) {
  const now = new Date();
  const live = await tx
    .update(bids)
    .set({ status: 'withdrawn', updatedAt: now })
    .where(and(eq(bids.sellerId, userId), eq(bids.status, 'active')))
    .returning({ projectId: bids.projectId });
  for (const { projectId } of live) await uncountBid(tx, projectId);
  await tx.update(bids).set({ comment: '', updatedAt: now }).where(eq(bids.sellerId, userId));
}
