import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import type { PaymentMethod, PaymentStatus, WithdrawalMethod, WithdrawalStatus } from '../../../contract/money.ts';
import type { DifferenceKind } from '../../../contract/payment-differences.ts';
import type { SelfEmployedStatus } from '../../../contract/payment-constants.ts';
import { orders } from '../orders/schema.ts';

// The states are the contract's (the API's queries and answers name them too).
export {
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  WITHDRAWAL_METHODS,
  WITHDRAWAL_STATUSES,
  type PaymentMethod,
  type PaymentStatus,
  type WithdrawalMethod,
  type WithdrawalStatus,
} from '../../../contract/money.ts';

// ---------------------------------------------------------------------------------------------------------------

/**
 * One attempt to pay an order, or a top-up of the customer's balance (no order, ADR 062). From the balance it
 * succeeds at once; through a provider it waits for the provider's signed webhook. An order is paid at most once:
 * one succeeded payment per order (a unique index).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order it pays; null for a top-up of the balance (ADR 062), which only a provider brings. */
    orderId: uuid('order_id').references(() => orders.id),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    method: text('method').$type<PaymentMethod>().notNull(),
    provider: text('provider'),
    /** The provider's id of this payment (its webhook names it). */
    providerRef: text('provider_ref'),
    /** The provider's deal holding the money (ЮKassa's safe deal, ADR 048), if any. */
    providerDealRef: text('provider_deal_ref'),
    /** When the provider closes that deal and returns what it still holds to the payer (its lifetime, ADR 058). */
    dealExpiresAt: timestamp('deal_expires_at', { withTimezone: true }),
    /** The reminders sent of the deal's end: 0 none, 1 two weeks before, 2 three days before (ADR 058). */
    dealReminders: smallint('deal_reminders').notNull().default(0),
    /** When the deal was found closed by its lifetime, and what it still held mirrored (ADR 058). */
    dealEndedAt: timestamp('deal_ended_at', { withTimezone: true }),
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
    /** What the provider says arrived in all, minor units of the currency (a crypto invoice may be under- or overpaid). */
    receivedAmount: bigint('received_amount', { mode: 'number' }),
    failureReason: text('failure_reason'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.currencyAmount} > 0`),
    // A top-up comes through a provider: the balance cannot top itself up.
    check('payments_top_up_by_provider', sql`${t.orderId} is not null or ${t.method} <> 'balance'`),
    uniqueIndex('payments_paid_once_idx').on(t.orderId).where(sql`status = 'succeeded'`),
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef).where(sql`provider_ref is not null`),
    index('payments_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('payments_order_idx').on(t.orderId),
    index('payments_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // The deals whose end comes (ADR 058): a hot few among all payments.
    index('payments_deal_end_idx').on(t.dealExpiresAt).where(sql`deal_expires_at is not null and deal_ended_at is null`),
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
    /**
     * A card's mask (`220220******1234`, ADR 050: never the number), a ЮMoney wallet's number, or a crypto address.
     */
    destination: text('destination').notNull(),
    /** A card's token from ЮKassa's payout widget (its "синоним"): what the payout is made to. */
    payoutToken: text('payout_token'),
    /** The card's kind as the widget named it (Visa, MasterCard, Mir…). */
    cardType: text('card_type'),
    status: text('status').$type<WithdrawalStatus>().notNull().default('pending'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    /** A payout: the provider that sends it, its id there, and the amount in the coin (minor units) at approval. */
    payoutProvider: text('payout_provider'),
    payoutRef: text('payout_ref'),
    payoutAmount: bigint('payout_amount', { mode: 'number' }),
    /**
     * A seller's share paid out of a safe deal (ADR 053): the order, and the provider's deal the money is in. Such a
     * payout is made without an admin, and when the provider cannot make it, it waits in the deal for new details.
     */
    orderId: uuid('order_id').references(() => orders.id),
    /** The order's number as its payout names it (an order's number never changes). */
    orderNumber: integer('order_number'),
    dealRef: text('deal_ref'),
    /** Which try at the provider this is: a payout sent again to new details is a new payout, under a new key. */
    payoutAttempt: integer('payout_attempt').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
    check('withdrawals_deal_has_order', sql`${t.dealRef} is null or ${t.orderId} is not null`),
    // One payout of an order's deal: a retried completion cannot pay the seller twice.
    uniqueIndex('withdrawals_order_idx').on(t.orderId).where(sql`order_id is not null`),
    index('withdrawals_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('withdrawals_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
  ],
);
export type WithdrawalRow = typeof withdrawals.$inferSelect;

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

/**
 * What the daily reconciliation with a provider found (issue 27): one row per (provider, kind, provider's id), so a
 * re-run finds it again instead of adding it twice; resolved by an admin with a note, by applying the provider's
 * outcome, or by a later run that no longer finds it.
 */
export const paymentDifferences = pgTable(
  'payment_differences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    /** The UTC day whose payments were compared. */
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').$type<DifferenceKind>().notNull(),
    providerRef: text('provider_ref').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id),
    /** The two sides as found: the provider's status and amount, ours, the ledger's sum. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The admin who resolved it; null when the reconciliation itself no longer found it. */
    resolvedBy: uuid('resolved_by').references(() => users.id),
    resolution: text('resolution'),
  },
  (t) => [
    uniqueIndex('payment_differences_once_idx').on(t.provider, t.kind, t.providerRef),
    index('payment_differences_open_idx').on(t.foundAt.desc(), t.id.desc()).where(sql`resolved_at is null`),
    index('payment_differences_day_idx').on(t.provider, t.day),
  ],
);
export type PaymentDifferenceRow = typeof paymentDifferences.$inferSelect;

/**
 * A seller who declared being self-employed (ADR 050): registered at ЮKassa by INN or phone, so that their payouts
 * register the receipt in «Мой налог». Payouts carry it only while ЮKassa says `confirmed`.
 */
export const selfEmployed = pgTable('self_employed', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  itn: text('itn'),
  phone: text('phone'),
  /** ЮKassa's id of the person (`ea-…`), once registered. */
  providerRef: text('provider_ref'),
  status: text('status').$type<SelfEmployedStatus>().notNull().default('pending'),
  /** Where the person allows ЮKassa in «Мой налог», while pending. */
  confirmationUrl: text('confirmation_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type SelfEmployedRow = typeof selfEmployed.$inferSelect;

/**
 * A refund of a card payment inside its ЮKassa safe deal (ADR 051): recorded in the transaction that decides it
 * (an order's cancellation, a dispute's decision, a payment for an order already paid), then made at the provider
 * by the outbox job `payments.refund` under the key `refund-<id>`. Until the provider answers, its kopecks stay in
 * the order's escrow (the deal still holds them); succeeded, they leave escrow to `external:card`; refused, to the
 * customer's balance. One ledger transfer either way, keyed `refund:<id>`.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider').notNull(),
    /** What goes back, kopecks. */
    amount: integer('amount').notNull(),
    /** How much the seller's payout in the deal shrinks by (the deal's refund_settlements), kopecks. */
    sellerReduction: integer('seller_reduction').notNull(),
    /** The decision it comes from (`settle:<order>`, `settle:<order>:refund`, `payment:<id>:refund`): one refund each. */
    key: text('key').notNull(),
    description: text('description').notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    /** The provider's id of the refund, once it answered. */
    providerRef: text('provider_ref'),
    failureReason: text('failure_reason'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_refunds_amount_positive', sql`${t.amount} > 0 and ${t.sellerReduction} >= 0`),
    uniqueIndex('payment_refunds_key_idx').on(t.key),
    uniqueIndex('payment_refunds_provider_ref_idx').on(t.provider, t.providerRef).where(sql`provider_ref is not null`),
    index('payment_refunds_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
    index('payment_refunds_order_idx').on(t.orderId),
  ],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
export type RefundStatus = 'pending' | 'succeeded' | 'refused';
