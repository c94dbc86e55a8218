import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { DisputeOutcome, DisputeReason, DisputeStatus } from '#contract/dispute-constants';
import { users } from '../users/schema.ts';
import { orders } from '../orders/schema.ts';

/**
 * Disputes over orders (issue 14, ADR 034): opened by a party of a paid order in progress or delivered (which then
 * stays `disputed`), cancelled by its opener or resolved by an admin. At most one open dispute per order (a
 * partial unique index). The decision's amounts are kept as they were settled (kopecks), so the page shows what
 * the ledger moved.
 */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    openedBy: uuid('opened_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The order's other party; never an admin. */
    respondentId: uuid('respondent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').$type<DisputeReason>().notNull(),
    description: text('description').notNull(),
    files: text('files').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<DisputeStatus>().notNull().default('open'),
    /** The first admin who took it (the arbiter); others may join its chat too. */
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    outcome: text('outcome').$type<DisputeOutcome>(),
    sellerPercent: integer('seller_percent'),
    customerAmount: integer('customer_amount'),
    sellerAmount: integer('seller_amount'),
    commission: integer('commission'),
    comment: text('comment'),
    resolvedBy: uuid('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('disputes_status', sql`${t.status} in ('open', 'resolved', 'cancelled')`),
    check('disputes_seller_percent', sql`${t.sellerPercent} is null or ${t.sellerPercent} between 0 and 100`),
    check('disputes_resolved', sql`(${t.status} = 'resolved') = (${t.outcome} is not null and ${t.resolvedAt} is not null)`),
    check('disputes_parties', sql`${t.openedBy} <> ${t.respondentId}`),
    uniqueIndex('disputes_one_open_idx').on(t.orderId).where(sql`status = 'open'`),
    // The admin queue: by state, oldest first.
    index('disputes_queue_idx').on(t.status, t.createdAt, t.id),
    index('disputes_opened_by_idx').on(t.openedBy, t.createdAt.desc()),
    index('disputes_respondent_idx').on(t.respondentId, t.createdAt.desc()),
    // lostDisputeRecently: a seller's resolved disputes by time.
    index('disputes_order_idx').on(t.orderId),
  ],
);

export type DisputeRow = typeof disputes.$inferSelect;
