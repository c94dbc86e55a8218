import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ReviewRole } from '#contract/review-constants';
import { users } from '../users/schema.ts';
import { orders } from '../orders/schema.ts';
import { services } from '../services/schema.ts';

/**
 * Reviews of completed orders (ADR 029): one per party per order, never edited. Hidden (published_at null) until
 * both parties have reviewed or the blind period after completion ends; removed only by an admin (removed_at,
 * kept so that nobody reviews twice, with the audit entry). The service is the order's, copied for its listing.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The author's side: a customer's review rates the seller (and feeds ratings), a seller's the customer. */
    authorRole: text('author_role').$type<ReviewRole>().notNull(),
    serviceId: uuid('service_id').references(() => services.id, { onDelete: 'set null' }),
    rating: integer('rating').notNull(),
    text: text('text').notNull().default(''),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: uuid('removed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_role', sql`${t.authorRole} in ('customer', 'seller')`),
    uniqueIndex('reviews_order_author_idx').on(t.orderId, t.authorId),
    // The public lists (a person's, a service's) and the ratings' means: published, not removed, newest first.
    index('reviews_target_idx').on(t.targetId, t.publishedAt.desc(), t.id.desc()).where(sql`published_at is not null and removed_at is null`),
    index('reviews_service_idx').on(t.serviceId, t.publishedAt.desc(), t.id.desc()).where(sql`published_at is not null and removed_at is null`),
    index('reviews_author_idx').on(t.authorId, t.createdAt.desc()),
  ],
);

export type ReviewRow = typeof reviews.$inferSelect;
