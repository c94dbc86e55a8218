import { z } from 'zod';
import { ORDER_STATUSES } from './money.ts';

// The profile's dashboard and referral page (issue 13, ADR 031).

/** The periods of the dashboard's switch, in days (a year is 365). */
export const DASHBOARD_PERIODS = ['7', '30', '90', '365'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DEFAULT_DASHBOARD_PERIOD: DashboardPeriod = '30';
export const DASHBOARD_ROLES = ['seller', 'customer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** Days are Moscow days (UTC+3 all year since 2014): a day's totals are what happened in it in Moscow. */
export const DAY_OFFSET_MS = 3 * 3_600_000;
/** The Moscow day of an instant, YYYY-MM-DD. */
export const dayOf = (at: Date): string => new Date(at.getTime() + DAY_OFFSET_MS).toISOString().slice(0, 10);
/** The `count` days up to and including `last` (YYYY-MM-DD), oldest first. */
export function daysUpTo(last: string, count: number): string[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export const dashboardQuerySchema = z.object({
  period: z.enum(DASHBOARD_PERIODS, { message: 'Период — 7, 30, 90 или 365 дней' }).default(DEFAULT_DASHBOARD_PERIOD),
  /** Whose figures: the person as a seller or as a customer (the page sends the active role). */
  role: z.enum(DASHBOARD_ROLES, { message: 'Роль — seller или customer' }).default('customer'),
});

export const dashboardDaySchema = z.object({
  day: z.string(),
  /** Kopecks: a seller's earnings (credited on completion), a customer's spending (paid in, less refunds). */
  amount: z.number().int(),
  /** Orders placed that day (as the seller or as the customer). */
  orders: z.number().int(),
  /** Views of the seller's service pages (0 for a customer). */
  views: z.number().int(),
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

export const dashboardSchema = z.object({
  role: z.enum(DASHBOARD_ROLES),
  period: z.number().int(),
  from: z.string(),
  to: z.string(),
  days: z.array(dashboardDaySchema),
  totals: z.object({
    amount: z.number().int(),
    orders: z.number().int(),
    views: z.number().int(),
    /** Orders placed through the seller's service pages in the period, paid and not cancelled (the conversion's numerator, ADR 045). */
    service_orders: z.number().int(),
    /** service_orders / views, at most 1; null without views. */
    conversion: z.number().nullable(),
  }),
  /** The orders placed in the period by their state now. */
  by_status: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** A person one brought, as the referrer sees them: no email, no surname beyond its initial. */
export const referralPersonSchema = z.object({
  _id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(DASHBOARD_ROLES),
  joined_at: z.string(),
  /** Their orders reward the referrer until then (registration + referrals.months). */
  rewards_until: z.string(),
  /** Kopecks earned on their orders so far. */
  earned: z.number().int(),
});
export type ReferralPerson = z.infer<typeof referralPersonSchema>;

/** One reward: the ledger entry that credited it, with the order it came from. */
export const referralEarningSchema = z.object({
  seq: z.number().int(),
  created_at: z.string(),
  order_number: z.number().int(),
  /** The order's price, kopecks. */
  price: z.number().int(),
  /** The reward as basis points of the price (350 = 3.5 %), from the posting itself. */
  rate_bp: z.number().int(),
  amount: z.number().int(),
  /** Whom the reward is for: the referred person and their side of the order. */
  person: z.object({ _id: z.string(), name: z.string() }),
  side: z.enum(DASHBOARD_ROLES),
});
export type ReferralEarning = z.infer<typeof referralEarningSchema>;

export const referralPageSchema = z.object({
  code: z.string(),
  /** The operator's current terms (contract/settings.ts). */
  terms: z.object({ buyer_bp: z.number().int(), seller_bp: z.number().int(), months: z.number().int() }),
  people: z.array(referralPersonSchema),
  earnings: z.array(referralEarningSchema),
  totals: z.object({
    people: z.number().int(),
    orders: z.number().int(),
    amount: z.number().int(),
    /** Kopecks earned in the current Moscow month. */
    month: z.number().int(),
  }),
});
export type ReferralPage = z.infer<typeof referralPageSchema>;

/** How many people and rewards the page lists (newest first); the totals count them all. */
export const REFERRAL_LIST_LIMIT = 100;
