import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { ledgerAccounts, ledgerEntries, ledgerHead, ledgerTransfers, type LedgerAccountKind, type LedgerTransferKind } from './schema.ts';
import type { WithdrawalMethod } from '#contract/money';
import { HttpError } from '../../lib/http.ts';
import type { Tx } from '../../platform/tx.ts';
import { LEDGER_MESSAGES } from '#contract/money';

// The double-entry ledger (ADR 025). Commands post transfers inside their own transaction (withTx); the database
// keeps the balances, refuses an overdraft of any internal account, an unbalanced transfer and any change to a
// posted entry, and chains the entries by hash (migration 0009). This file only names accounts and writes rows.

/** An account by what it is for; its row is opened on first use. */
export type AccountRef =
  | { kind: 'available' | 'withdrawal_hold'; userId: string }
  | { kind: 'escrow'; orderId: string }
  | { kind: 'revenue' }
  | { kind: 'referral_expense' }
  | { kind: 'external'; method: WithdrawalMethod };

export const accountCode = (ref: AccountRef): string => {
  switch (ref.kind) {
    case 'available':
    case 'withdrawal_hold':
      return `${ref.kind}:${ref.userId}`;
    case 'escrow':
      return `escrow:${ref.orderId}`;
    case 'external':
      return `external:${ref.method}`;
    default:
      return ref.kind;
  }
};

/** One side of a transfer: kopecks into (positive) or out of (negative) an account. */
export interface Leg {
  account: AccountRef;
  amount: number;
}

export interface TransferInput {
  kind: LedgerTransferKind;
  /** What makes this movement happen once: a second transfer with the same key is not posted. */
  key: string;
  orderId?: string | null;
  description?: string;
  legs: Leg[];
}

/** The overdraft CHECK of ledger_accounts (a balance would go below zero). */
export const isOverdraft = (err: unknown): boolean => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e.cause?.code ?? e.code;
  const constraint = e.cause?.constraint ?? e.constraint;
  return code === '23514' && constraint === 'ledger_accounts_no_overdraft';
};

async function openAccounts(tx: Tx, refs: AccountRef[]): Promise<Map<string, string>> {
  const rows = [...new Map(refs.map((ref) => [accountCode(ref), ref])).entries()].map(([code, ref]) => ({
    code,
    kind: ref.kind as LedgerAccountKind,
    userId: 'userId' in ref ? ref.userId : null,
    orderId: 'orderId' in ref ? ref.orderId : null,
  }));
  await tx.insert(ledgerAccounts).values(rows).onConflictDoNothing({ target: ledgerAccounts.code });
  const found = await accountIds(tx).execute({ codes: rows.map((r) => r.code) });
  return new Map(found.map((r) => [r.code, r.id]));
}

// Every transfer's statements of one shape, built once (server/db/prepared.ts).
const accountIds = statement((db) =>
  db
    .select({ id: ledgerAccounts.id, code: ledgerAccounts.code })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.code} = any(${sql.placeholder('codes')}::text[])`)
    .prepare('ledger_account_ids'),
);
const newTransfer = statement((db) =>
  db
    .insert(ledgerTransfers)
    .values({ kind: sql.placeholder('kind'), key: sql.placeholder('key'), orderId: sql.placeholder('orderId'), description: sql.placeholder('description') })
    .onConflictDoNothing({ target: ledgerTransfers.key })
    .returning({ id: ledgerTransfers.id })
    .prepare('ledger_transfer'),
);
const balanceByCode = (db: Db) => db.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.code, sql.placeholder('code')));
const balance = statement((db) => balanceByCode(db).prepare('ledger_balance'));
const lockedBalance = statement((db) => balanceByCode(db).for('update').prepare('ledger_balance_locked'));

/**
 * Posts a transfer in the caller's transaction. Answers its id, or null when a transfer with this key was posted
 * before (the movement already happened: nothing is written). Legs of zero are left out; the rest must sum to
 * zero. An internal account going below zero aborts the transaction with the database's CHECK (see isOverdraft):
 * a command checks the balance first (balanceOf with lock) to answer with a clear message.
 */
export async function postTransfer(tx: Tx, input: TransferInput): Promise<string | null> {
  const legs = input.legs.filter((l) => l.amount !== 0);
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount)) throw new Error(`ledger: ${input.key}: amount ${leg.amount} is not whole kopecks`);
  }
  if (legs.length < 2 || legs.reduce((sum, l) => sum + l.amount, 0) !== 0) {
    throw new Error(`ledger: ${input.key} does not balance`);
  }
  const [transfer] = await newTransfer(tx).execute({ kind: input.kind, key: input.key, orderId: input.orderId ?? null, description: input.description ?? '' });
  if (!transfer) return null;
  const ids = await openAccounts(tx, legs.map((l) => l.account));
  // One statement: the entry trigger runs per row, in this order.
  await tx.insert(ledgerEntries).values(
    legs.map((l) => ({ transferId: transfer.id, accountId: ids.get(accountCode(l.account))!, amount: l.amount })),
  );
  return transfer.id;
}

/** Whether a transfer with this key exists (for example, whether an order's escrow has been settled). */
export async function transferPosted(db: Db | Tx, key: string): Promise<boolean> {
  const [row] = await db.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.key, key)).limit(1);
  return Boolean(row);
}

/**
 * An account's balance in kopecks (0 for an account never used). With `lock`, the account row is locked until
 * the transaction ends, so that a check of the balance and the transfer that spends it cannot interleave with
 * another spender's. The chain's head is locked first, as the entry trigger does: a transaction posting entries
 * holds the head and then waits for the accounts it moves, so one that held an account and then waited for the
 * head deadlocked it (a customer paying from the balance while a top-up of theirs arrived, issue 30).
 */
export async function balanceOf(db: Db | Tx, ref: AccountRef, { lock = false } = {}): Promise<number> {
  if (lock) await db.select({ id: ledgerHead.id }).from(ledgerHead).where(eq(ledgerHead.id, 1)).for('update');
  const [row] = await (lock ? lockedBalance : balance)(db).execute({ code: accountCode(ref) });
  return row?.balance ?? 0;
}

/**
 * Spends from an internal account: locks it (and the chain's head before it), refuses with a clear 409 when the money
 * is not there. `lock: false` only looks, for a refusal before the command's other steps: the spend itself is checked
 * again with the lock, just before its transfer.
 */
export async function requireBalance(tx: Tx, ref: AccountRef, amount: number, { lock = true } = {}): Promise<void> {
  const balance = await balanceOf(tx, ref, { lock });
  if (balance < amount) throw new HttpError(409, LEDGER_MESSAGES.insufficientFunds);
}

/** A user's two balances, kopecks. */
export async function balancesOf(db: Db | Tx, userId: string): Promise<{ available: number; held: number }> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, ['available', 'withdrawal_hold'])));
  return {
    available: rows.find((r) => r.kind === 'available')?.balance ?? 0,
    held: rows.find((r) => r.kind === 'withdrawal_hold')?.balance ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reconciliation (npm run ledger:check): recomputes every balance from the entries and verifies the hash chain.

export interface LedgerProblem {
  kind: 'balance' | 'transfer' | 'chain' | 'head' | 'negative';
  detail: string;
}

export interface LedgerReport {
  entries: number;
  accounts: number;
  transfers: number;
  problems: LedgerProblem[];
}

const GENESIS = '0'.repeat(64);
const CHAIN_PAGE = 5_000;

export async function checkLedger(db: Db): Promise<LedgerReport> {
  const { createHash } = await import('node:crypto');
  const problems: LedgerProblem[] = [];

  const balances = await rowsOf<{ code: string; kind: string; balance: string; computed: string }>(db, sql`
    select a.code, a.kind, a.balance::text as balance, coalesce(sum(e.amount), 0)::text as computed
    from ledger_accounts a left join ledger_entries e on e.account_id = a.id
    group by a.id`);
  for (const row of balances) {
    if (row.balance !== row.computed) problems.push({ kind: 'balance', detail: `${row.code}: stored ${row.balance}, entries ${row.computed}` });
    if (row.kind !== 'external' && BigInt(row.computed) < 0n) problems.push({ kind: 'negative', detail: `${row.code}: ${row.computed}` });
  }

  const transfers = await rowsOf<{ id: string; key: string; total: string; legs: string }>(db, sql`
    select t.id, t.key, coalesce(sum(e.amount), 0)::text as total, count(e.seq)::text as legs
    from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id
    group by t.id having coalesce(sum(e.amount), 0) <> 0 or count(e.seq) < 2`);
  for (const row of transfers) problems.push({ kind: 'transfer', detail: `${row.key}: sum ${row.total}, ${row.legs} entries` });

  // The chain, page by page in seq order: each entry's prev_hash is the hash before it and its hash is recomputed.
  let prev = GENESIS;
  let expectedSeq = 1;
  let entries = 0;
  for (;;) {
    const page = await rowsOf<{ seq: string; transfer_id: string; account_id: string; amount: string; balance_after: string; prev_hash: string; hash: string }>(
      db,
      sql`select seq::text, transfer_id, account_id, amount::text, balance_after::text, prev_hash, hash
        from ledger_entries e where e.seq >= ${expectedSeq} order by e.seq limit ${CHAIN_PAGE}`,
    );
    for (const e of page) {
      if (Number(e.seq) !== expectedSeq) problems.push({ kind: 'chain', detail: `entry ${expectedSeq} is missing (next is ${e.seq})` });
      if (e.prev_hash !== prev) problems.push({ kind: 'chain', detail: `entry ${e.seq}: prev_hash does not match entry before it` });
      const hash = createHash('sha256')
        .update([e.prev_hash, e.seq, e.transfer_id, e.account_id, e.amount, e.balance_after].join('|'))
        .digest('hex');
      if (hash !== e.hash) problems.push({ kind: 'chain', detail: `entry ${e.seq}: hash does not match its content` });
      prev = e.hash;
      expectedSeq = Number(e.seq) + 1;
      entries++;
    }
    if (page.length < CHAIN_PAGE) break;
  }
  const [head] = await rowsOf<{ seq: string; hash: string }>(db, sql`select seq::text, hash from ledger_head where id = 1`);
  if (!head || Number(head.seq) !== expectedSeq - 1 || head.hash !== prev) {
    problems.push({ kind: 'head', detail: `head ${head?.seq}/${head?.hash.slice(0, 12)} ≠ last entry ${expectedSeq - 1}/${prev.slice(0, 12)}` });
  }

  const [counts] = await rowsOf<{ accounts: string; transfers: string }>(
    db,
    sql`select (select count(*) from ledger_accounts)::text as accounts, (select count(*) from ledger_transfers)::text as transfers`,
  );
  return { entries, accounts: Number(counts?.accounts ?? 0), transfers: Number(counts?.transfers ?? 0), problems };
}

/** The rows of a raw query (node-postgres and PGlite both answer `{ rows }` through drizzle's execute). */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
