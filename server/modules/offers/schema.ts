import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { orders } from '../orders/schema.ts';
import type { BidStage } from '../../../contract/bids.ts';
import type { OfferStatus } from '../../../contract/offers.ts';

/**
 * A seller's offer of a new job in an order's chat (ADR 066): whole, or in stages (ADR 065) as the bids' schema checks
 * them. One live offer (open or change_requested) per order chat; an accepted one names the order it opened.
 */
export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order whose chat it was made in (a head or a one-stage order). */
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    price: integer('price').notNull(),
    days: integer('days').notNull(),
    stages: jsonb('stages').$type<BidStage[]>(),
    status: text('status').$type<OfferStatus>().notNull().default('open'),
    changeComment: text('change_comment'),
    newOrderId: uuid('new_order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('offers_price_positive', sql`${t.price} > 0 and ${t.days} > 0`),
    uniqueIndex('offers_live_idx')
      .on(t.orderId)
      .where(sql`status in ('open', 'change_requested')`),
    index('offers_order_idx').on(t.orderId, t.createdAt.desc()),
  ],
);
export type OfferRow = typeof offers.$inferSelect;
