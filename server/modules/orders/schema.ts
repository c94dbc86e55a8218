import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { projects } from '../projects/schema.ts';
import { services } from '../services/schema.ts';
import type { OrderStatus } from '../../../contract/money.ts';
import { bids } from '../bids/schema.ts';

// The states are the contract's (the API's queries and answers name them too).
export { ORDER_STATUSES, type OrderStatus } from '../../../contract/money.ts';

// The money loop (ADR 025): orders here; bids, the ledger and payments in their modules. Money is integer kopecks
// everywhere; crypto amounts are integer minor units of their currency (USDT cents, BTC satoshi).

export interface OrderExtra {
  title: string;
  price: number;
  days: number;
}

/**
 * An order: a service bought with a package and extras, or a project's accepted bid. Its price, days and
 * revisions are copied when it is made, so a later edit of the service changes nothing for it. The commission
 * rate is copied too (basis points), so that an operator's change applies to new orders only.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** A short number people can say on the phone ("Заказ №1042"). */
    number: bigint('number', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id),
    serviceId: uuid('service_id').references(() => services.id, { onDelete: 'set null' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    bidId: uuid('bid_id').references(() => bids.id, { onDelete: 'set null' }),
    /** The custom offer the order was opened from (ADR 066); no foreign key, the offers table names its orders. */
    offerId: uuid('offer_id'),
    title: text('title').notNull(),
    /** economy | standard | business, or null for the service's base offer and for bids. */
    package: text('package'),
    extras: jsonb('extras').$type<OrderExtra[]>().notNull().default([]),
    price: integer('price').notNull(),
    days: integer('days').notNull(),
    revisionsLeft: integer('revisions_left').notNull(),
    revisionsTotal: integer('revisions_total').notNull(),
    commissionBp: integer('commission_bp').notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('awaiting_payment'),
    /** The state a dispute froze (disputes issue): a cancelled dispute returns the order to it. */
    statusBeforeDispute: text('status_before_dispute').$type<OrderStatus>(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    deadlineAt: timestamp('deadline_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by'),
    cancelReason: text('cancel_reason'),
    /** A pending cancellation proposal: who proposed it, when, and why. */
    cancelProposedBy: uuid('cancel_proposed_by'),
    cancelProposedAt: timestamp('cancel_proposed_at', { withTimezone: true }),
    cancelProposalReason: text('cancel_proposal_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Orders in stages (ADR 065): a stage's head order, null for a head and for a one-stage order. The head's
     * price and days are its stages' sums and the stages have its parties (a constraint trigger checks at commit).
     */
    headId: uuid('head_id').references((): AnyPgColumn => orders.id),
    /** The stage's number, 1..20, set exactly when head_id is. */
    stage: integer('stage'),
    stageTitle: text('stage_title'),
    /** What the stage hands over. */
    stageDeliverable: text('stage_deliverable'),
    /** When the stage's funding reminder went (ADR 065): set once, in the reminder's transaction, so it never goes twice. */
    stageRemindedAt: timestamp('stage_reminded_at', { withTimezone: true }),
  },
  (t) => [
    check('orders_price_positive', sql`${t.price} > 0`),
    check('orders_days_positive', sql`${t.days} > 0`),
    check('orders_revisions', sql`${t.revisionsLeft} >= 0 and ${t.revisionsLeft} <= ${t.revisionsTotal}`),
    check('orders_commission', sql`${t.commissionBp} >= 0 and ${t.commissionBp} <= 10000`),
    check('orders_parties', sql`${t.customerId} <> ${t.sellerId}`),
    check('orders_stage', sql`(${t.headId} is null and ${t.stage} is null) or (${t.headId} is not null and ${t.stage} is not null and ${t.stage} between 1 and 20)`),
    uniqueIndex('orders_number_idx').on(t.number),
    // A stage's number once per head; also the index of a head's stages.
    uniqueIndex('orders_head_stage_idx').on(t.headId, t.stage).where(sql`head_id is not null`),
    // The funding reminder's candidates: stages not funded and not yet reminded of.
    index('orders_stage_reminder_idx').on(t.headId, t.stage).where(sql`head_id is not null and status = 'awaiting_payment' and stage_reminded_at is null`),
    // At most one order per accepted bid.
    uniqueIndex('orders_bid_idx').on(t.bidId).where(sql`bid_id is not null`),
    uniqueIndex('orders_offer_idx').on(t.offerId).where(sql`offer_id is not null`),
    // The lists and their counts, newest first. head_id last: a list shows no stages (listedOrders, ADR 065), and in
    // the index that test needs no visit of the row (an index-only count; bench/orders.ts).
    index('orders_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc(), t.headId),
    // A seller's lists also leave drafts out (notDraftSql, ADR 042): the columns that test reads close the key.
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc(), t.id.desc(), t.headId, t.paidAt, t.bidId, t.offerId),
    // The state tabs of /profile/orders for a person with many orders (bench/orders.ts).
    index('orders_customer_status_idx').on(t.customerId, t.status, t.createdAt.desc(), t.id.desc(), t.headId),
    index('orders_seller_status_idx').on(t.sellerId, t.status, t.createdAt.desc(), t.id.desc(), t.headId, t.paidAt, t.bidId, t.offerId),
    index('orders_status_idx').on(t.status, t.createdAt.desc(), t.id.desc(), t.headId),
    index('orders_created_idx').on(t.createdAt.desc(), t.id.desc(), t.headId),
  ],
);
export type OrderRow = typeof orders.$inferSelect;

/** What a seller handed over: a message and files; the last one is what the customer accepts or sends back. */
export const orderDeliveries = pgTable(
  'order_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    files: text('files').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_deliveries_order_idx').on(t.orderId, t.createdAt), index('order_deliveries_files_idx').using('gin', t.files)],
);
