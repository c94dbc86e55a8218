import type { Db } from '../../db/client.ts';
import { referredPeople, type ReferredPerson, type UserRow } from '../users/index.ts';
import { sellerViewsByDay } from '../services/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { earningsByDay, escrowNetByDay, referralRewardsOf, type RewardEntry } from '../ledger/index.ts';
import { countByStatus, orderFactsOf, orderIdsOf, placedByDay, type OrderScope } from '../orders/index.ts';
import { ORDER_STATUSES } from '#contract/money';
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

// The profile's figures (issue 13, ADR 031). Money figures are the ledger's (its queries.ts), never recomputed from
// prices: a seller's earnings are the credits of their available account in the settlement of their orders, a
// customer's spending is what went into the escrow of their orders less what came back, and a referral reward is
// the credit that the settlement posts right after the referral-expense clearing account's matching debit. The
// orders' counts are the orders module's (its stats.ts), the views the services module's, the referred people the
// users module's (their stats.ts).

/** A referred person's name as their referrer sees it: the first name and the surname's initial. */
const shortName = (name: string, surname: string) => (surname ? `${name} ${surname.slice(0, 1)}.` : name);

export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  /** GET /api/dashboard: the person's figures for the last `period` Moscow days, today included. */
  async dashboard(user: UserRow, query: { period: DashboardPeriod; role: DashboardRole }): Promise<Dashboard> {
    const period = Number(query.period);
    const days = daysUpTo(dayOf(this.deps.clock.now()), period);
    const from = days[0]!;
    const to = days[days.length - 1]!;
    // The first instant of the first Moscow day.
    const since = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_OFFSET_MS);
    const seller = query.role === 'seller';
    const scope: OrderScope = seller ? { sellerId: user.id } : { customerId: user.id };
    const db = this.deps.db;

    const amounts = seller ? await earningsByDay(db, user.id, orderIdsOf(scope), since) : await escrowNetByDay(db, orderIdsOf(scope), since);
    const placed = await placedByDay(db, scope, since);
    const counts = await countByStatus(db, scope, since);

    const views = seller ? await sellerViewsByDay(db, user.id, from, to) : [];

    const amountOf = new Map(amounts.map((r) => [r.day, r.amount]));
    const placedOf = new Map(placed.map((r) => [r.day, r]));
    const viewsOf = new Map(views.map((r) => [r.day, r.views]));
    const series = days.map((day) => ({
      day,
      amount: amountOf.get(day) ?? 0,
      orders: placedOf.get(day)?.orders ?? 0,
      views: viewsOf.get(day) ?? 0,
    }));
    const totalViews = series.reduce((s, d) => s + d.views, 0);
    const serviceOrders = placed.reduce((s, r) => s + r.serviceOrders, 0);
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
        // Capped at 100 %: views are counted once per visitor a day, and one visitor may buy twice.
        conversion: seller && totalViews > 0 ? Math.min(1, serviceOrders / totalViews) : null,
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
    const people = await referredPeople(this.deps.db, user.id);
    const entries = await referralRewardsOf(this.deps.db, user.id);
    const facts = await orderFactsOf(this.deps.db, entries.map((e) => e.orderId));
    // Newest first, as the ledger answers; a reward's order is always there (the ledger's foreign key).
    const rewards = entries.flatMap((e) => {
      const order = facts.get(e.orderId);
      return order ? [{ ...e, ...order }] : [];
    });
    const { earnings, earned } = earningsOf(rewards, new Map(people.map((p) => [p.id, p])));

    const thisMonth = dayOf(this.deps.clock.now()).slice(0, 7);
    const presentPerson = (p: ReferredPerson): ReferralPerson => {
      const joined = p.createdAt;
      const until = new Date(joined);
      until.setUTCMonth(until.getUTCMonth() + months);
      return {
        _id: p.id,
        name: shortName(p.name, p.surname),
        avatar: p.avatar,
        role: p.roles.includes('seller') ? 'seller' : 'customer',
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

/** A reward as the referral page reads it: the ledger's entry with the facts of its order. */
type Reward = RewardEntry & { number: number; price: number; customerId: string; sellerId: string };

/** The rewards of the people this person referred, each with its side, and what each person earned them. */
function earningsOf(rewards: Reward[], referred: Map<string, { id: string; name: string; surname: string }>) {
  // Which of the order's two people a reward is for: the one this person referred; when they referred both,
  // the customer's reward is posted first (the orders' commands/settlement.ts).
  const seqsOfOrder = new Map<string, number[]>();
  for (const r of rewards) {
    const key = `${r.customerId}:${r.sellerId}:${r.number}`;
    seqsOfOrder.set(key, [...(seqsOfOrder.get(key) ?? []), r.seq].sort((a, b) => a - b));
  }
  const earned = new Map<string, number>();
  const earnings: (ReferralEarning & { personId: string })[] = rewards.flatMap((r) => {
    const customer = referred.has(r.customerId);
    const sellerSide = referred.has(r.sellerId);
    let side: DashboardRole;
    if (customer && sellerSide) side = seqsOfOrder.get(`${r.customerId}:${r.sellerId}:${r.number}`)![0] === r.seq ? 'customer' : 'seller';
    else if (customer || sellerSide) side = customer ? 'customer' : 'seller';
    else return []; // a reward for a person no longer referred by this one (cannot happen today: referred_by is never changed)
    const personId = side === 'customer' ? r.customerId : r.sellerId;
    const person = referred.get(personId)!;
    const { amount, price } = r;
    earned.set(personId, (earned.get(personId) ?? 0) + amount);
    return [
      {
        seq: r.seq,
        created_at: r.createdAt.toISOString(),
        order_number: r.number,
        price,
        rate_bp: price > 0 ? Math.round((amount * 10_000) / price) : 0,
        amount,
        person: { _id: person.id, name: shortName(person.name, person.surname) },
        side,
        personId,
      },
    ];
  });
  return { earnings, earned };
}
