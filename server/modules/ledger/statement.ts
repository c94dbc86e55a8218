import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from './schema.ts';

// A person's statement: the entries of their available and withdrawal-hold accounts, with what the finance page
// needs to word each one (ADR 045).

export interface StatementLine {
  seq: number;
  amount: number;
  balanceAfter: number;
  createdAt: Date;
  account: string;
  kind: string;
  /** The order the transfer is about, if any. */
  orderId: string | null;
  /** The escrow's debit of the same transfer (the amount a settlement released), or null. */
  released: number | null;
  /** Whether the entry is a referral reward (it follows its referral_expense clearing debit). */
  reward: boolean;
}

/** Up to `limit` lines of the person's statement before the entry `beforeSeq` (all when null), newest first. */
export async function statementOf(db: Db, userId: string, { beforeSeq, limit }: { beforeSeq: number | null; limit: number }): Promise<StatementLine[]> {
  return db
    .select({
      seq: ledgerEntries.seq,
      amount: ledgerEntries.amount,
      balanceAfter: ledgerEntries.balanceAfter,
      createdAt: ledgerEntries.createdAt,
      account: ledgerAccounts.kind,
      kind: ledgerTransfers.kind,
      orderId: ledgerTransfers.orderId,
      // A settlement's escrow debit is the amount released; a referral reward follows its clearing debit (ADR 025).
      released: sql<number | null>`(select -sum(x.amount) from ledger_entries x join ledger_accounts xa on xa.id = x.account_id
        where x.transfer_id = ${ledgerEntries.transferId} and xa.kind = 'escrow')`.mapWith(Number),
      reward: sql<boolean>`exists (select 1 from ledger_entries p join ledger_accounts pa on pa.id = p.account_id
        where p.seq = ${ledgerEntries.seq} - 1 and p.transfer_id = ${ledgerEntries.transferId} and pa.kind = 'referral_expense' and p.amount = -${ledgerEntries.amount})`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(
      and(
        eq(ledgerAccounts.userId, userId),
        inArray(ledgerAccounts.kind, ['available', 'withdrawal_hold']),
        beforeSeq !== null ? sql`${ledgerEntries.seq} < ${beforeSeq}` : undefined,
      ),
    )
    .orderBy(desc(ledgerEntries.seq))
    .limit(limit);
}
