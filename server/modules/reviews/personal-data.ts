import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { reviews } from './schema.ts';

/** The reviews the person wrote, for their personal-data export (ADR 052). */
export function reviewsWrittenBy(db: Db, userId: string) {
  return db
    .select({ id: reviews.id, orderId: reviews.orderId, role: reviews.authorRole, rating: reviews.rating, text: reviews.text, publishedAt: reviews.publishedAt, createdAt: reviews.createdAt })
    .from(reviews)
    .where(eq(reviews.authorId, userId))
    .orderBy(reviews.createdAt);
}

/** A deleted account's reviews keep their rating and lose their words (ADR 052). */
export async function eraseReviewTextsOf(tx: Tx, userId: string) {
  await tx.update(reviews).set({ text: '' }).where(eq(reviews.authorId, userId));
}
