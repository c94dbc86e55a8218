import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import { DAY_OFFSET_MS, dayOf, daysUpTo } from '#contract/dashboard';
import { ORDER_STATUSES } from '#contract/money';
import { marketplaceMoneyByDay } from '../ledger/index.ts';
import { countByStatus, placedByDay } from '../orders/index.ts';
import { countUsersJoinedSince } from '../users/index.ts';
import { countServicesAwaitingModeration } from '../services/index.ts';
import { pendingWithdrawals } from '../payments/index.ts';
import type { Overview, OverviewPeriod } from '#contract/admin';

// The admin home (/admin, ADR 036): the marketplace at a glance. Money is read from the ledger, as the profile's
// dashboard reads it (ADR 031): what came into escrow accounts, and what the revenue account was credited; the
// orders' counts are the orders module's, and the people, services and withdrawals figures their owners'.

export class OverviewService {
  constructor(private readonly deps: { db: Db; clock: Clock; disputes: { countOpen(): Promise<number> } }) {}

  /** Open disputes now (the disputes module's count). */
  openDisputes(): Promise<number> {
    return this.deps.disputes.countOpen();
  }

  async overview(query: { period: OverviewPeriod }): Promise<Overview> {
    const period = Number(query.period);
    const days = daysUpTo(dayOf(this.deps.clock.now()), period);
    const from = days[0]!;
    const to = days[days.length - 1]!;
    const since = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_OFFSET_MS);

    const [money, placed, counts, users, withdrawals, services, disputes] = await Promise.all([
      marketplaceMoneyByDay(this.deps.db, since),
      placedByDay(this.deps.db, 'all', since),
      countByStatus(this.deps.db, 'all'),
      countUsersJoinedSince(this.deps.db, since),
      pendingWithdrawals(this.deps.db),
      countServicesAwaitingModeration(this.deps.db),
      this.openDisputes(),
    ]);

    const moneyOf = new Map(money.map((r) => [r.day, r]));
    const placedOf = new Map(placed.map((r) => [r.day, r.orders]));
    const series = days.map((day) => ({
      day,
      paid_in: moneyOf.get(day)?.paidIn ?? 0,
      revenue: moneyOf.get(day)?.revenue ?? 0,
      orders: placedOf.get(day) ?? 0,
    }));
    return {
      period,
      from,
      to,
      days: series,
      totals: {
        paid_in: series.reduce((s, d) => s + d.paid_in, 0),
        revenue: series.reduce((s, d) => s + d.revenue, 0),
        orders: series.reduce((s, d) => s + d.orders, 0),
        new_users: users,
      },
      orders_by_status: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
      waiting: {
        withdrawals: withdrawals.count,
        withdrawals_amount: withdrawals.amount,
        services,
        disputes,
      },
    };
  }
}
