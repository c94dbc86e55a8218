import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { projects } from '../projects/schema.ts';
import type { BidStatus } from '../../../contract/money.ts';
import type { BidStage } from '../../../contract/bids.ts';

// The states are the contract's (the API's queries and answers name them too).
export { BID_STATUSES, type BidStatus } from '../../../contract/money.ts';

/** A seller's offer on a project: one live bid per seller and project (a withdrawn one may be placed again). */
export const bids = pgTable(
  'bids',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    price: integer('price').notNull(),
    days: integer('days').notNull(),
    comment: text('comment').notNull(),
    /** The work in stages (ADR 065), as the contract's schema checked it; null for one whole order. */
    stages: jsonb('stages').$type<BidStage[]>(),
    status: text('status').$type<BidStatus>().notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('bids_price_positive', sql`${t.price} > 0`),
    check('bids_days_positive', sql`${t.days} > 0`),
    uniqueIndex('bids_project_seller_idx').on(t.projectId, t.sellerId).where(sql`status <> 'withdrawn'`),
    index('bids_project_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('bids_seller_idx').on(t.sellerId, t.createdAt.desc(), t.id.desc()),
    index('bids_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
export type BidRow = typeof bids.$inferSelect;
