import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import { DAY_OFFSET_MS, dayOf, daysUpTo } from '#contract/dashboard';
import { ORDER_STATUSES } from '#contract/money';
import type { Overview, OverviewPeriod } from '#contract/admin';

// The admin home (/admin, ADR 036): the marketplace at a glance. Money is read from the ledger, as the profile's
// dashboard reads it (ADR 031): what came into escrow accounts, and what the revenue account was credited.

/** A day's bucket in SQL: the Moscow date of a timestamp (the same days as contract dayOf). */
const dayExpr = (column: SQL) => sql`to_char((${column} at time zone 'UTC') + ${`${DAY_OFFSET_MS / 1000} seconds`}::interval, 'YYYY-MM-DD')`;
const toInt = (v: unknown) => Number(v ?? 0);

export class OverviewService {
  constructor(private readonly deps: { db: Db; clock: Clock; disputes: { countOpen(): Promise<number> } }) {}

  private async rows<T>(query: SQL): Promise<T[]> {
    return ((await this.deps.db.execute(query)) as unknown as { rows: T[] }).rows;
  }

  /** Open disputes now (the disputes module's count). */
  openDisputes(): Promise<number> {
    return this.deps.disputes.countOpen();
  }

  async overview(query: { period: OverviewPeriod }): Promise<Overview> {
    const period = Number(query.period);
    const days = daysUpTo(dayOf(this.deps.clock.now()), period);
    const from = days[0]!;
    const to = days[days.length - 1]!;
    const since = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_OFFSET_MS).toISOString();

    const [money, placed, byStatus, users, withdrawals, services, disputes] = await Promise.all([
      // Paid in: the credits of order escrow accounts (refunds and releases are debits); revenue: the revenue
      // account's entries (the commission less referral rewards, ADR 025).
      this.rows<{ day: string; paid_in: unknown; revenue: unknown }>(sql`
        select ${dayExpr(sql`e.created_at`)} as day,
          coalesce(sum(e.amount) filter (where a.kind = 'escrow' and e.amount > 0), 0)::float8 as paid_in,
          coalesce(sum(e.amount) filter (where a.kind = 'revenue'), 0)::float8 as revenue
        from ledger_entries e join ledger_accounts a on a.id = e.account_id
        where a.kind in ('escrow', 'revenue') and e.created_at >= ${since}::timestamptz
        group by 1`),
      this.rows<{ day: string; orders: unknown }>(sql`
        select ${dayExpr(sql`o.created_at`)} as day, count(*)::int as orders
        from orders o where o.created_at >= ${since}::timestamptz group by 1`),
      this.rows<{ status: string; count: unknown }>(sql`select status, count(*)::int as count from orders group by 1`),
      this.rows<{ count: unknown }>(sql`select count(*)::int as count from users where created_at >= ${since}::timestamptz`),
      this.rows<{ count: unknown; amount: unknown }>(sql`
        select count(*)::int as count, coalesce(sum(amount), 0)::float8 as amount from withdrawals where status = 'pending'`),
      this.rows<{ count: unknown }>(sql`
        select count(*)::int as count from services where status = 'moderation' or pending_edit is not null`),
      this.openDisputes(),
    ]);

    const moneyOf = new Map(money.map((r) => [r.day, r]));
    const placedOf = new Map(placed.map((r) => [r.day, toInt(r.orders)]));
    const series = days.map((day) => ({
      day,
      paid_in: toInt(moneyOf.get(day)?.paid_in),
      revenue: toInt(moneyOf.get(day)?.revenue),
      orders: placedOf.get(day) ?? 0,
    }));
    const counts = new Map(byStatus.map((r) => [r.status, toInt(r.count)]));
    return {
      period,
      from,
      to,
      days: series,
      totals: {
        paid_in: series.reduce((s, d) => s + d.paid_in, 0),
        revenue: series.reduce((s, d) => s + d.revenue, 0),
        orders: series.reduce((s, d) => s + d.orders, 0),
        new_users: toInt(users[0]?.count),
      },
      orders_by_status: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
      waiting: {
        withdrawals: toInt(withdrawals[0]?.count),
        withdrawals_amount: toInt(withdrawals[0]?.amount),
        services: toInt(services[0]?.count),
        disputes,
      },
    };
  }
}
