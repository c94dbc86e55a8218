import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { projects, services } from './catalog.ts';
import type { BidStatus, OrderStatus, PaymentMethod, PaymentStatus, WithdrawalMethod, WithdrawalStatus } from '../../../contract/money.ts';

// The states are the contract's (the API's queries and answers name them too).
export {
  BID_STATUSES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  WITHDRAWAL_METHODS,
  WITHDRAWAL_STATUSES,
  type BidStatus,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
  type WithdrawalMethod,
  type WithdrawalStatus,
} from '../../../contract/money.ts';

// The money loop (ADR 025): bids, orders, the double-entry ledger, payments, withdrawals. Money is integer kopecks
// everywhere; crypto amounts are integer minor units of their currency (USDT cents, BTC satoshi).

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
  },
  (t) => [
    check('orders_price_positive', sql`${t.price} > 0`),
    check('orders_days_positive', sql`${t.days} > 0`),
    check('orders_revisions', sql`${t.revisionsLeft} >= 0 and ${t.revisionsLeft} <= ${t.revisionsTotal}`),
    check('orders_commission', sql`${t.commissionBp} >= 0 and ${t.commissionBp} <= 10000`),
    check('orders_parties', sql`${t.customerId} <> ${t.sellerId}`),
    uniqueIndex('orders_number_idx').on(t.number),
    // At most one order per accepted bid.
    uniqueIndex('orders_bid_idx').on(t.bidId).where(sql`bid_id is not null`),
    index('orders_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc(), t.id.desc()),
    // The state tabs of /profile/orders for a person with many orders (bench/orders.ts).
    index('orders_customer_status_idx').on(t.customerId, t.status, t.createdAt.desc(), t.id.desc()),
    index('orders_seller_status_idx').on(t.sellerId, t.status, t.createdAt.desc(), t.id.desc()),
    index('orders_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('orders_created_idx').on(t.createdAt.desc(), t.id.desc()),
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

// ---------------------------------------------------------------------------------------------------------------
// The ledger. Every movement of money is a transfer of two or more entries whose amounts sum to zero. The database
// itself (migration 0009) refuses an UPDATE or DELETE of an entry or transfer, an unbalanced transfer (a deferred
// constraint trigger) and a negative balance on any account but an external one (a CHECK on the balance the entry
// trigger keeps), and chains each entry to the one before it by a SHA-256 hash, in the order of `seq`.

export const LEDGER_ACCOUNT_KINDS = ['available', 'withdrawal_hold', 'escrow', 'revenue', 'referral_expense', 'external'] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `available:<user>`, `withdrawal_hold:<user>`, `escrow:<order>`, `revenue`, `referral_expense`, `external:<method>`. */
    code: text('code').notNull(),
    kind: text('kind').$type<LedgerAccountKind>().notNull(),
    userId: uuid('user_id').references(() => users.id),
    orderId: uuid('order_id').references(() => orders.id),
    /** Kept by the entry trigger, never written by the application. */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_code_idx').on(t.code),
    check('ledger_accounts_no_overdraft', sql`${t.kind} = 'external' or ${t.balance} >= 0`),
    index('ledger_accounts_user_idx').on(t.userId).where(sql`user_id is not null`),
  ],
);
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;

export const LEDGER_TRANSFER_KINDS = ['payment', 'escrow', 'release', 'refund', 'withdrawal_hold', 'withdrawal_paid', 'withdrawal_return', 'adjustment'] as const;
export type LedgerTransferKind = (typeof LEDGER_TRANSFER_KINDS)[number];

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<LedgerTransferKind>().notNull(),
    /** Each business event moves money once: `pay:<order>`, `settle:<order>`, `withdrawal:<id>:hold` … */
    key: text('key').notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_transfers_key_idx').on(t.key), index('ledger_transfers_order_idx').on(t.orderId).where(sql`order_id is not null`)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    /** The chain's order: given by the entry trigger under the ledger's head lock. */
    seq: bigint('seq', { mode: 'number' }).primaryKey().default(0),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed kopecks (or minor units): positive into the account, negative out of it; never zero. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    // The four below are the trigger's (their defaults are placeholders it always replaces).
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull().default(0),
    prevHash: text('prev_hash').notNull().default(''),
    hash: text('hash').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_entries_nonzero', sql`${t.amount} <> 0`),
    index('ledger_entries_account_idx').on(t.accountId, t.seq.desc()),
    index('ledger_entries_transfer_idx').on(t.transferId),
  ],
);
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/** One row: the last entry's sequence number and hash. The entry trigger locks it, so the chain never forks. */
export const ledgerHead = pgTable('ledger_head', {
  id: integer('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

// ---------------------------------------------------------------------------------------------------------------

/**
 * One attempt to pay an order. From the balance it succeeds at once; through a provider it waits for the
 * provider's signed webhook. An order is paid at most once: one succeeded payment per order (a unique index).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    method: text('method').$type<PaymentMethod>().notNull(),
    provider: text('provider'),
    /** The provider's id of this payment (its webhook names it). */
    providerRef: text('provider_ref'),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    /** The order's price, kopecks. */
    amount: integer('amount').notNull(),
    /** The method's fee on top, kopecks. */
    fee: integer('fee').notNull().default(0),
    currency: text('currency').$type<'RUB' | 'USDT' | 'BTC'>().notNull(),
    /** What the customer pays in that currency, minor units (kopecks, USDT cents, satoshi). */
    currencyAmount: bigint('currency_amount', { mode: 'number' }).notNull(),
    /** Rubles per unit of the currency when quoted (crypto), as a decimal string. */
    rate: numeric('rate'),
    quoteExpiresAt: timestamp('quote_expires_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.currencyAmount} > 0`),
    uniqueIndex('payments_paid_once_idx').on(t.orderId).where(sql`status = 'succeeded'`),
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef).where(sql`provider_ref is not null`),
    index('payments_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('payments_order_idx').on(t.orderId),
    index('payments_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;

/** A request to pay money out; the amount is held (ledger) from the moment it is made until an admin decides. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amount: integer('amount').notNull(),
    method: text('method').$type<WithdrawalMethod>().notNull(),
    /** Card number or wallet address, as validated. */
    destination: text('destination').notNull(),
    status: text('status').$type<WithdrawalStatus>().notNull().default('pending'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
    index('withdrawals_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('withdrawals_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
  ],
);
export type WithdrawalRow = typeof withdrawals.$inferSelect;

/**
 * Idempotency-Key: the first answer to a key is kept and given again to the same request; the same key with
 * another body is refused (409). `response` is null while the first request is still being answered.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The endpoint's name and a SHA-256 of the request body. */
    scope: text('scope').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Webhook events seen, by the provider's event id: a replay is recognised and changes nothing. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
