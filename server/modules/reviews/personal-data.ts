import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reviews } from './schema.ts';

/** The reviews the person wrote, for their personal-data export (ADR 052). */
export function reviewsWrittenBy(db: Db, userId: string) {
  return db
    .select({ id: reviews.id, orderId: reviews.orderId, role: reviews.authorRole, rating: reviews.rating, text: reviews.text, publishedAt: reviews.publishedAt, createdAt: reviews.createdAt })
    .from(reviews)
    .where(eq(reviews.authorId, userId))
    .orderBy(reviews.createdAt);
}
