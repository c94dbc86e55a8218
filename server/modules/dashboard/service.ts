import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/users.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { accountCode } from '../ledger/index.ts';
import { ORDER_STATUSES, type OrderStatus } from '#contract/money';
import {
  DAY_OFFSET_MS,
  REFERRAL_LIST_LIMIT,
  dayOf,
  daysUpTo,
  type Dashboard,
  type DashboardPeriod,
  type DashboardRole,
  type ReferralEarning,
  type ReferralPage,
  type ReferralPerson,
} from '#contract/dashboard';

export interface DashboardServiceDeps {
  db: Db;
  settings: SettingsService;
  clock: Clock;
}

// The profile's figures (issue 13, ADR 031). Money figures are read from the ledger, never recomputed from
// prices: a seller's earnings are the credits of their available account in the settlement of their orders, a
// customer's spending is what went into the escrow of their orders less what came back, and a referral reward is
// the credit that the settlement posts right after the referral-expense clearing account's matching debit (the
// order of legs of OrdersService.complete: …, referral_expense −r, available:referrer +r, for each reward).

/** A day's bucket in SQL: the Moscow date of a timestamp (the same days as contract dayOf). */
const dayExpr = (column: SQL) => sql`to_char((${column} at time zone 'UTC') + ${`${DAY_OFFSET_MS / 1000} seconds`}::interval, 'YYYY-MM-DD')`;

/** Whether the entry `e` is a referral reward: the entry just before it in the same transfer is its clearing debit. */
const isRewardEntry = sql`exists (
  select 1 from ledger_entries p join ledger_accounts pa on pa.id = p.account_id
  where p.seq = e.seq - 1 and p.transfer_id = e.transfer_id and pa.kind = 'referral_expense' and p.amount = -e.amount)`;

/** A referred person's name as their referrer sees it: the first name and the surname's initial. */
const shortName = (name: string, surname: string) => (surname ? `${name} ${surname.slice(0, 1)}.` : name);

const toInt = (v: unknown) => Number(v ?? 0);
const toIso = (v: unknown) => new Date(v as string | Date).toISOString();

export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  private async rows<T>(query: SQL): Promise<T[]> {
    return ((await this.deps.db.execute(query)) as unknown as { rows: T[] }).rows;
  }

  /** GET /api/dashboard: the person's figures for the last `period` Moscow days, today included. */
  async dashboard(user: UserRow, query: { period: DashboardPeriod; role: DashboardRole }): Promise<Dashboard> {
    const period = Number(query.period);
    const days = daysUpTo(dayOf(this.deps.clock.now()), period);
    const from = days[0]!;
    const to = days[days.length - 1]!;
    // The first instant of the first Moscow day.
    const since = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_OFFSET_MS);
    const seller = query.role === 'seller';
    const party = seller ? sql`o.seller_id` : sql`o.customer_id`;

    const amounts = seller
      ? await this.rows<{ day: string; amount: unknown }>(sql`
          select ${dayExpr(sql`e.created_at`)} as day, sum(e.amount)::float8 as amount
          from ledger_entries e
          join ledger_accounts a on a.id = e.account_id
          join ledger_transfers t on t.id = e.transfer_id
          join orders o on o.id = t.order_id
          where a.code = ${accountCode({ kind: 'available', userId: user.id })} and t.kind = 'release'
            and o.seller_id = ${user.id} and e.created_at >= ${since.toISOString()}::timestamptz and not ${isRewardEntry}
          group by 1`)
      : await this.rows<{ day: string; amount: unknown }>(sql`
          select ${dayExpr(sql`e.created_at`)} as day, sum(e.amount)::float8 as amount
          from orders o
          join ledger_accounts a on a.order_id = o.id and a.kind = 'escrow'
          join ledger_entries e on e.account_id = a.id
          join ledger_transfers t on t.id = e.transfer_id
          where o.customer_id = ${user.id} and t.kind <> 'release' and e.created_at >= ${since.toISOString()}::timestamptz
          group by 1`);

    const placed = await this.rows<{ day: string; orders: unknown; service_orders: unknown }>(sql`
      select ${dayExpr(sql`o.created_at`)} as day, count(*)::int as orders, count(o.service_id)::int as service_orders
      from orders o where ${party} = ${user.id} and o.created_at >= ${since.toISOString()}::timestamptz
      group by 1`);

    const byStatus = await this.rows<{ status: OrderStatus; count: unknown }>(sql`
      select o.status, count(*)::int as count
      from orders o where ${party} = ${user.id} and o.created_at >= ${since.toISOString()}::timestamptz
      group by 1`);

    const views = seller
      ? await this.rows<{ day: string; views: unknown }>(sql`
          select to_char(v.day, 'YYYY-MM-DD') as day, sum(v.views)::int as views
          from service_views_daily v join services s on s.id = v.service_id
          where s.seller_id = ${user.id} and v.day >= ${from}::date and v.day <= ${to}::date
          group by 1`)
      : [];

    const amountOf = new Map(amounts.map((r) => [r.day, toInt(r.amount)]));
    const placedOf = new Map(placed.map((r) => [r.day, r]));
    const viewsOf = new Map(views.map((r) => [r.day, toInt(r.views)]));
    const series = days.map((day) => ({
      day,
      amount: amountOf.get(day) ?? 0,
      orders: toInt(placedOf.get(day)?.orders),
      views: viewsOf.get(day) ?? 0,
    }));
    const totalViews = series.reduce((s, d) => s + d.views, 0);
    const serviceOrders = placed.reduce((s, r) => s + toInt(r.service_orders), 0);
    const counts = new Map(byStatus.map((r) => [r.status, toInt(r.count)]));
    return {
      role: query.role,
      period,
      from,
      to,
      days: series,
      totals: {
        amount: series.reduce((s, d) => s + d.amount, 0),
        orders: series.reduce((s, d) => s + d.orders, 0),
        views: totalViews,
        service_orders: seller ? serviceOrders : 0,
        conversion: seller && totalViews > 0 ? serviceOrders / totalViews : null,
      },
      by_status: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })).filter((s) => s.count > 0),
    };
  }

  /** GET /api/referrals/my: the link's code, the people brought, the rewards as the ledger posted them, totals. */
  async referrals(user: UserRow): Promise<ReferralPage> {
    const [buyerBp, sellerBp, months] = await Promise.all([
      this.deps.settings.get('referrals.buyerBp'),
      this.deps.settings.get('referrals.sellerBp'),
      this.deps.settings.get('referrals.months'),
    ]);
    const people = await this.rows<{ id: string; name: string; surname: string; avatar: string | null; roles: string[] | string; created_at: unknown }>(sql`
      select u.id, u.name, u.surname, u.avatar, u.roles, u.created_at
      from users u where u.referred_by = ${user.id}
      order by u.created_at desc, u.id desc`);
    const rewards = await this.rows<{
      seq: unknown;
      amount: unknown;
      created_at: unknown;
      number: unknown;
      price: unknown;
      customer_id: string;
      seller_id: string;
    }>(sql`
      select e.seq::float8 as seq, e.amount::float8 as amount, e.created_at, o.number::float8 as number, o.price, o.customer_id, o.seller_id
      from ledger_entries e
      join ledger_accounts a on a.id = e.account_id
      join ledger_transfers t on t.id = e.transfer_id
      join orders o on o.id = t.order_id
      where a.code = ${accountCode({ kind: 'available', userId: user.id })} and t.kind = 'release' and ${isRewardEntry}
      order by e.seq desc`);

    const referred = new Map(people.map((p) => [p.id, p]));
    // Which of the order's two people a reward is for: the one this person referred; when they referred both,
    // the customer's reward is posted first (OrdersService.referralRewards).
    const seqsOfOrder = new Map<string, number[]>();
    for (const r of rewards) {
      const key = `${r.customer_id}:${r.seller_id}:${toInt(r.number)}`;
      seqsOfOrder.set(key, [...(seqsOfOrder.get(key) ?? []), toInt(r.seq)].sort((a, b) => a - b));
    }
    const earned = new Map<string, number>();
    const earnings: (ReferralEarning & { personId: string })[] = rewards.flatMap((r) => {
      const customer = referred.has(r.customer_id);
      const sellerSide = referred.has(r.seller_id);
      let side: DashboardRole;
      if (customer && sellerSide) side = seqsOfOrder.get(`${r.customer_id}:${r.seller_id}:${toInt(r.number)}`)![0] === toInt(r.seq) ? 'customer' : 'seller';
      else if (customer || sellerSide) side = customer ? 'customer' : 'seller';
      else return []; // a reward for a person no longer referred by this one (cannot happen today: referred_by is never changed)
      const personId = side === 'customer' ? r.customer_id : r.seller_id;
      const person = referred.get(personId)!;
      const amount = toInt(r.amount);
      const price = toInt(r.price);
      earned.set(personId, (earned.get(personId) ?? 0) + amount);
      return [
        {
          seq: toInt(r.seq),
          created_at: toIso(r.created_at),
          order_number: toInt(r.number),
          price,
          rate_bp: price > 0 ? Math.round((amount * 10_000) / price) : 0,
          amount,
          person: { _id: person.id, name: shortName(person.name, person.surname) },
          side,
          personId,
        },
      ];
    });

    const thisMonth = dayOf(this.deps.clock.now()).slice(0, 7);
    const presentPerson = (p: (typeof people)[number]): ReferralPerson => {
      const joined = new Date(p.created_at as string | Date);
      const until = new Date(joined);
      until.setUTCMonth(until.getUTCMonth() + months);
      const roles = Array.isArray(p.roles) ? p.roles : parseArray(p.roles);
      return {
        _id: p.id,
        name: shortName(p.name, p.surname),
        avatar: p.avatar,
        role: roles.includes('seller') ? 'seller' : 'customer',
        joined_at: joined.toISOString(),
        rewards_until: until.toISOString(),
        earned: earned.get(p.id) ?? 0,
      };
    };
    return {
      code: user.referralCode,
      terms: { buyer_bp: buyerBp, seller_bp: sellerBp, months },
      people: people.slice(0, REFERRAL_LIST_LIMIT).map(presentPerson),
      earnings: earnings.slice(0, REFERRAL_LIST_LIMIT).map(({ personId: _, ...e }) => e),
      totals: {
        people: people.length,
        orders: new Set(earnings.map((e) => e.order_number)).size,
        amount: earnings.reduce((s, e) => s + e.amount, 0),
        month: earnings.filter((e) => dayOf(new Date(e.created_at)).startsWith(thisMonth)).reduce((s, e) => s + e.amount, 0),
      },
    };
  }
}

/** A text[] as some drivers give it: `{seller,customer}`. */
function parseArray(value: string): string[] {
  return value.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
}
