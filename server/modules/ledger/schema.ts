import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { orders } from '../orders/schema.ts';

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
