import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

// The payments module's figures for the admin home (/admin, ADR 036): the withdrawals waiting for an operator. The
// admin module reads them here rather than summing the withdrawals table itself.

/** How many withdrawals are pending, and the sum of their amounts. */
export async function pendingWithdrawals(db: Db): Promise<{ count: number; amount: number }> {
  const { rows } = (await db.execute(sql`
    select count(*)::int as count, coalesce(sum(amount), 0)::float8 as amount from withdrawals where status = 'pending'`)) as unknown as {
    rows: { count: unknown; amount: unknown }[];
  };
  return { count: Number(rows[0]?.count ?? 0), amount: Number(rows[0]?.amount ?? 0) };
}
