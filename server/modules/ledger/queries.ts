import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { DAY_OFFSET_MS } from '#contract/dashboard';
import { accountCode } from './ledger.ts';

// The ledger's figures for the profile dashboard (ADR 031) and the admin home (ADR 036): sums of posted entries by
// Moscow day, read here so that no other module reads the ledger's tables. Orders are given as a subquery of their
// ids (the orders module's), so the ledger knows nothing of who ordered what.

/** A day's bucket in SQL: the Moscow date of a timestamp (the same days as contract dayOf). */
const dayExpr = (column: SQL) => sql`to_char((${column} at time zone 'UTC') + ${`${DAY_OFFSET_MS / 1000} seconds`}::interval, 'YYYY-MM-DD')`;

/**
 * Whether the entry `e` is a referral reward: the entry just before it in the same transfer is its clearing debit
 * (the order of a settlement's legs: …, referral_expense −r, available:referrer +r, for each reward).
 */
const isRewardEntry = sql`exists (
  select 1 from ledger_entries p join ledger_accounts pa on pa.id = p.account_id
  where p.seq = e.seq - 1 and p.transfer_id = e.transfer_id and pa.kind = 'referral_expense' and p.amount = -e.amount)`;

const toInt = (v: unknown) => Number(v ?? 0);

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface DayAmount {
  /** The Moscow date, YYYY-MM-DD. */
  day: string;
  /** Kopecks. */
  amount: number;
}

/**
 * A seller's earnings by day since `since`: the credits of their available account in the settlements (releases) of
 * `orderIds`, their referral rewards left out.
 */
export async function earningsByDay(db: Db, userId: string, orderIds: SQL, since: Date): Promise<DayAmount[]> {
  const found = await rows<{ day: string; amount: unknown }>(db, sql`
    select ${dayExpr(sql`e.created_at`)} as day, sum(e.amount)::float8 as amount
    from ledger_entries e
    join ledger_accounts a on a.id = e.account_id
    join ledger_transfers t on t.id = e.transfer_id
    where a.code = ${accountCode({ kind: 'available', userId })} and t.kind = 'release'
      and t.order_id in (${orderIds}) and e.created_at >= ${since.toISOString()}::timestamptz and not ${isRewardEntry}
    group by 1`);
  return found.map((r) => ({ day: r.day, amount: toInt(r.amount) }));
}

/**
 * A customer's spending by day since `since`: the entries of the escrow accounts of `orderIds` outside settlements,
 * what went into escrow less what came back.
 */
export async function escrowNetByDay(db: Db, orderIds: SQL, since: Date): Promise<DayAmount[]> {
  const found = await rows<{ day: string; amount: unknown }>(db, sql`
    select ${dayExpr(sql`e.created_at`)} as day, sum(e.amount)::float8 as amount
    from ledger_accounts a
    join ledger_entries e on e.account_id = a.id
    join ledger_transfers t on t.id = e.transfer_id
    where a.kind = 'escrow' and a.order_id in (${orderIds}) and t.kind <> 'release' and e.created_at >= ${since.toISOString()}::timestamptz
    group by 1`);
  return found.map((r) => ({ day: r.day, amount: toInt(r.amount) }));
}

export interface RewardEntry {
  /** The entry's place in the ledger's chain: a transfer's rewards in the order they were posted. */
  seq: number;
  amount: number;
  createdAt: Date;
  orderId: string;
}

/** The referral rewards credited to `userId`, newest first, each with the order whose settlement paid it. */
export async function referralRewardsOf(db: Db, userId: string): Promise<RewardEntry[]> {
  const found = await rows<{ seq: unknown; amount: unknown; created_at: unknown; order_id: string }>(db, sql`
    select e.seq::float8 as seq, e.amount::float8 as amount, e.created_at, t.order_id
    from ledger_entries e
    join ledger_accounts a on a.id = e.account_id
    join ledger_transfers t on t.id = e.transfer_id
    where a.code = ${accountCode({ kind: 'available', userId })} and t.kind = 'release' and t.order_id is not null and ${isRewardEntry}
    order by e.seq desc`);
  return found.map((r) => ({ seq: toInt(r.seq), amount: toInt(r.amount), createdAt: new Date(r.created_at as string | Date), orderId: r.order_id }));
}

/**
 * The marketplace's money by day since `since`: paid in (the credits of order escrow accounts; refunds and releases
 * are debits) and revenue (the revenue account's entries: the commission less referral rewards, ADR 025).
 */
export async function marketplaceMoneyByDay(db: Db, since: Date): Promise<{ day: string; paidIn: number; revenue: number }[]> {
  const found = await rows<{ day: string; paid_in: unknown; revenue: unknown }>(db, sql`
    select ${dayExpr(sql`e.created_at`)} as day,
      coalesce(sum(e.amount) filter (where a.kind = 'escrow' and e.amount > 0), 0)::float8 as paid_in,
      coalesce(sum(e.amount) filter (where a.kind = 'revenue'), 0)::float8 as revenue
    from ledger_entries e join ledger_accounts a on a.id = e.account_id
    where a.kind in ('escrow', 'revenue') and e.created_at >= ${since.toISOString()}::timestamptz
    group by 1`);
  return found.map((r) => ({ day: r.day, paidIn: toInt(r.paid_in), revenue: toInt(r.revenue) }));
}

/**
 * What the settlement of the order `orderId` (a column or value of the caller's query) released from its escrow,
 * kopecks; null before it settles. A subquery, for a select of orders.
 */
export const releasedFromEscrow = (orderId: SQLWrapper) =>
  sql<number | null>`(select -e.amount from ledger_entries e join ledger_transfers t on t.id = e.transfer_id
    join ledger_accounts a on a.id = e.account_id where t.order_id = ${orderId} and t.kind = 'release' and a.kind = 'escrow' limit 1)`.mapWith(Number);

/**
 * What each payment brought in, kopecks: the transfers of kind `payment` keyed `payment:<id>` (the order's price)
 * and `payment:<id>:<received>` (a surplus, a late or partial arrival), summed over their external legs. Read by
 * the orders' ids (indexed), so that a day's reconciliation does not scan the ledger.
 */
export async function paymentArrivals(db: Db, payments: readonly { id: string; orderId: string | null }[]): Promise<Map<string, number>> {
  const totals = new Map(payments.map((p) => [p.id, 0]));
  if (!payments.length) return totals;
  const orderIds = [...new Set(payments.flatMap((p) => (p.orderId ? [p.orderId] : [])))];
  // A top-up (ADR 062) names no order: its transfers are found by their keys, `payment:<id>` and `payment:<id>:…`.
  const which = [
    ...(orderIds.length ? [sql`t.order_id in (${sql.join(orderIds.map((id) => sql`${id}::uuid`), sql`, `)})`] : []),
    ...payments.filter((p) => !p.orderId).map((p) => sql`(t.key = ${`payment:${p.id}`} or (t.key > ${`payment:${p.id}:`} and t.key < ${`payment:${p.id};`}))`),
  ];
  const found = await rows<{ key: string; amount: unknown }>(db, sql`
    select t.key, (-sum(e.amount))::float8 as amount
    from ledger_transfers t join ledger_entries e on e.transfer_id = t.id join ledger_accounts a on a.id = e.account_id
    where t.kind = 'payment' and a.kind = 'external'
      and (${sql.join(which, sql` or `)})
    group by t.key`);
  for (const row of found) {
    const id = row.key.split(':')[1] ?? '';
    if (row.key.startsWith('payment:') && totals.has(id)) totals.set(id, totals.get(id)! + toInt(row.amount));
  }
  return totals;
}
