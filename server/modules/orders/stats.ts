import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from './schema.ts';
import { DAY_OFFSET_MS } from '#contract/dashboard';
import type { OrderStatus } from '#contract/money';
import { notCancelledSql, notDraftSql } from './state.ts';
import { listedOrders } from './queries.ts';

// The orders' counts for the profile dashboard (ADR 031, 045) and the admin home (ADR 036), and the few facts of
// an order that the referral page shows: read here so that no other module reads the orders table.

/** Whose orders: a customer's, a seller's (never their drafts, which they do not know of: ADR 042), or all. */
export type OrderScope = { customerId: string } | { sellerId: string } | 'all';

/** A day's bucket in SQL: the Moscow date of a timestamp (the same days as contract dayOf). */
const dayExpr = (column: SQLWrapper) => sql<string>`to_char((${column} at time zone 'UTC') + ${`${DAY_OFFSET_MS / 1000} seconds`}::interval, 'YYYY-MM-DD')`;

const count = sql<number>`count(*)::int`.mapWith(Number);

function scopeSql(scope: OrderScope): SQL | undefined {
  if (scope === 'all') return undefined;
  if ('customerId' in scope) return eq(orders.customerId, scope.customerId);
  return and(eq(orders.sellerId, scope.sellerId), notDraftSql);
}

const createdSince = (since: Date) => sql`${orders.createdAt} >= ${since.toISOString()}::timestamptz`;

/** The ids of the scope's orders, as a subquery (for the ledger's figures of them: stages included, ADR 065). */
export function orderIdsOf(scope: OrderScope): SQL {
  const where = scopeSql(scope);
  return where ? sql`select ${orders.id} from ${orders} where ${where}` : sql`select ${orders.id} from ${orders}`;
}

/**
 * Orders placed by Moscow day since `since`, and of them the service pages' that were paid and not cancelled since
 * (the conversion's numerator, ADR 045: an unpaid or a cancelled order is no sale).
 */
export async function placedByDay(db: Db, scope: OrderScope, since: Date): Promise<{ day: string; orders: number; serviceOrders: number }[]> {
  const day = dayExpr(orders.createdAt);
  return db
    .select({
      day,
      orders: count,
      serviceOrders: sql<number>`(count(${orders.serviceId}) filter (where ${orders.paidAt} is not null and ${notCancelledSql}))::int`.mapWith(Number),
    })
    .from(orders)
    .where(and(listedOrders(), scopeSql(scope), createdSince(since)))
    .groupBy(sql`1`);
}

/** The scope's orders by status (those placed since `since`, or all of them). */
export async function countByStatus(db: Db, scope: OrderScope, since?: Date): Promise<Map<OrderStatus, number>> {
  const rows = await db
    .select({ status: orders.status, count })
    .from(orders)
    .where(and(listedOrders(), scopeSql(scope), since ? createdSince(since) : undefined))
    .groupBy(orders.status);
  return new Map(rows.map((r) => [r.status, r.count]));
}

/** What the referral page shows of the orders whose settlements paid rewards. */
export async function orderFactsOf(db: Db, ids: string[]): Promise<Map<string, { number: number; price: number; customerId: string; sellerId: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: orders.id, number: orders.number, price: orders.price, customerId: orders.customerId, sellerId: orders.sellerId })
    .from(orders)
    .where(inArray(orders.id, [...new Set(ids)]));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}
