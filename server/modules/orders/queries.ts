import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { orderDeliveries, orders } from './schema.ts';
import { people, type People, type UserRow } from '../users/index.ts';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { notFound } from '../../lib/http.ts';
import { filesByPaths } from '../../platform/files.ts';
import { cursorPosition, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { countUpToQuery } from '../../platform/listing/totals.ts';
import { orderChatIdOf, type OrderView } from '../chat/index.ts';
import { releasedFromEscrow } from '../ledger/index.ts';
import { ORDER_MESSAGES, type Order, type OrderDetail } from '#contract/orders';
import type { adminOrdersQuerySchema, ordersQuerySchema } from '#contract/orders';
import type { OrderServiceDeps } from './deps.ts';
import { orderPolicy } from './policy.ts';
import { notDraftSql } from './state.ts';
import { fundingRefusal } from './stages.ts';
import { presentChatOrder, presentDetail, presentOrder, type OrderRecord, type OrderTimes } from './presenter.ts';

// The orders' reads: one order for its parties and admins, the lists, and the order cards of order chats.

type Deps = Pick<OrderServiceDeps, 'db' | 'settings' | 'platform'>;

/**
 * The orders people and admins see in lists and counts: heads and one-stage orders, never a stage, which is reached
 * through its head (ADR 065). Every list or count of orders is built on it (the ledger's figures are not: money
 * names the stages).
 */
export const listedOrders = (): SQL => isNull(orders.headId);
type Page<T> = { result: T[]; total: number; next: string | null };

const SORT: readonly SortKey[] = [
  { expr: orders.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: orders.id, dir: 'desc', kind: 'uuid' },
];

const customerUser = people('customer');
const sellerUser = people('seller');
const personOf = (t: People) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

async function times(deps: Deps): Promise<OrderTimes> {
  const [cancelWindowMinutes, autoAcceptDays] = await Promise.all([deps.settings.get('orders.cancelWindowMinutes'), deps.settings.get('orders.autoAcceptDays')]);
  return { now: deps.platform.clock.now(), cancelWindowMinutes, autoAcceptDays };
}

function records(db: Db) {
  return db
    .select({
      order: orders,
      customer: personOf(customerUser),
      seller: personOf(sellerUser),
      chatId: orderChatIdOf(orders.id),
      createdKey: timestampKey(orders.createdAt),
      // What the settlement released from the escrow (the ledger's word for a completed order's money).
      released: releasedFromEscrow(orders.id),
      // Orders in stages (ADR 065): a stage's head's number, a head's count of stages.
      headNumber: sql<number | null>`(select h.number from orders h where h.id = orders.head_id)`.mapWith((v) => (v === null ? null : Number(v))),
      stageCount: sql<number>`(select count(*) from orders s where s.head_id = orders.id)`.mapWith(Number),
    })
    .from(orders)
    .innerJoin(customerUser, eq(customerUser.id, orders.customerId))
    .innerJoin(sellerUser, eq(sellerUser.id, orders.sellerId))
    .$dynamic();
}

// Built once (ADR 070): the order cards of order chats are read on every message sent in one (a payment's too).
const recordById = statement((db) => records(db).where(eq(orders.id, sql.placeholder('id'))).limit(1).prepare('order_record'));
const recordsByIds = statement((db) =>
  records(db)
    .where(sql`${orders.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('order_records'),
);

/** One order with its parties, chat and settlement, as presenting reads it. */
export async function orderRecord(deps: Deps, id: string): Promise<OrderRecord | undefined> {
  const [row] = await recordById(deps.db).execute({ id });
  return row;
}

/**
 * One order with its deliveries, newest first; a head with its stages, each with its own deliveries and the viewer's
 * steps on it (ADR 065). A stage's `pay` waits for the earlier stages (fundingRefusal): its siblings are read too.
 */
async function detail(deps: Deps, record: OrderRecord, viewerId: string | null): Promise<OrderDetail> {
  const o = record.order;
  const headId = o.headId ?? (record.stageCount ? o.id : null);
  const [stages, now] = await Promise.all([headId ? records(deps.db).where(eq(orders.headId, headId)).orderBy(asc(orders.stage)) : [], times(deps)]);
  const stageRows = stages.map((s) => s.order);
  const funding = (r: OrderRecord): OrderRecord => (r.order.stage ? { ...r, fundingRefusal: fundingRefusal(stageRows, r.order.stage) } : r);
  const shown = record.stageCount ? stages : [];
  const deliveries = await deps.db
    .select()
    .from(orderDeliveries)
    .where(inArray(orderDeliveries.orderId, [o.id, ...shown.map((s) => s.order.id)]))
    .orderBy(desc(orderDeliveries.createdAt), desc(orderDeliveries.id));
  const files = await filesByPaths(deps.db, deliveries.flatMap((d) => d.files));
  const of = (id: string) => deliveries.filter((d) => d.orderId === id);
  return presentDetail(
    presentOrder(funding(record), viewerId, now),
    of(o.id),
    files,
    record.stageCount ? shown.map((s) => ({ order: presentOrder(funding(s), viewerId, now), deliveries: of(s.order.id) })) : null,
  );
}

/** GET /api/orders/{id}: its parties and admins; anyone else 404. */
export async function getOrder(deps: Deps, user: UserRow, id: string): Promise<OrderDetail> {
  const record = orderPolicy.authorize(user, 'view', await orderRecord(deps, id));
  return detail(deps, record, user.id);
}

/** GET /api/admin/orders/{id} (the endpoint's guard admits admins only). */
export async function adminGetOrder(deps: Deps, admin: UserRow, id: string): Promise<OrderDetail> {
  const record = await orderRecord(deps, id);
  if (!record) throw notFound(ORDER_MESSAGES.notFound);
  return detail(deps, record, admin.id);
}

/**
 * What narrows a list, as a shape: each shape's page and count are statements built once (ADR 070), with the values
 * as parameters: `viewer`, `status`, `number`, `like`, the cursor's `afterCreated` and `afterId`, and `limit`.
 */
interface ListShape {
  role: 'buying' | 'selling' | 'admin';
  status: boolean;
  q: 'number' | 'title' | null;
}
type ListParams = Record<string, string | number>;

const param = sql.placeholder;
function shapeFilter(shape: ListShape): SQL | undefined {
  return and(
    listedOrders(),
    shape.role === 'buying' ? eq(orders.customerId, param('viewer')) : undefined,
    // A seller's list has no drafts: they do not know of them (ADR 042).
    shape.role === 'selling' ? and(eq(orders.sellerId, param('viewer')), notDraftSql) : undefined,
    shape.status ? eq(orders.status, param('status')) : undefined,
    shape.q === 'number' ? or(eq(orders.number, param('number')), ilike(orders.title, param('like'))) : undefined,
    shape.q === 'title' ? ilike(orders.title, param('like')) : undefined,
  );
}

function shapeStatements(shape: ListShape, name: string) {
  const pageOf = (after: boolean) =>
    statement((db) =>
      records(db)
        .where(and(shapeFilter(shape), after ? keysetAfter(SORT, [param('afterCreated'), param('afterId')]) : undefined))
        .orderBy(...orderBy(SORT))
        .limit(param('limit'))
        .prepare(`${name}${after ? '_after' : ''}_page`),
    );
  return {
    first: pageOf(false),
    after: pageOf(true),
    // Counted in the list's order: the planner then walks the list's own index, index-only, as for the page; unordered,
    // it read all orders from the table (head_id is null is no index's first column; bench/orders.ts, admin's list).
    count: statement((db) =>
      countUpToQuery(db, db.select({ one: sql`1` }).from(orders).where(shapeFilter(shape)).orderBy(...orderBy(SORT)).$dynamic()).prepare(`${name}_count`),
    ),
  };
}
const statementsByShape = new Map<string, ReturnType<typeof shapeStatements>>();
function statementsOf(shape: ListShape) {
  const name = `orders_${shape.role}${shape.status ? '_status' : ''}${shape.q ? `_${shape.q}` : ''}`;
  let made = statementsByShape.get(name);
  if (!made) statementsByShape.set(name, (made = shapeStatements(shape, name)));
  return made;
}

async function listPage(deps: Deps, shape: ListShape, params: ListParams, query: { cursor?: string; limit: number }, viewerId: string): Promise<Page<Order>> {
  const made = statementsOf(shape);
  const [afterCreated, afterId] = query.cursor ? cursorPosition(query.cursor, 'new', SORT) : [];
  const [rows, counted, now] = await Promise.all([
    query.cursor ? made.after(deps.db).execute({ ...params, afterCreated, afterId, limit: query.limit + 1 }) : made.first(deps.db).execute({ ...params, limit: query.limit + 1 }),
    made.count(deps.db).execute(params),
    times(deps),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['new', r.createdKey, r.order.id]);
  return { result: kept.map((r) => presentOrder(r, viewerId, now)), total: counted[0]?.n ?? 0, next };
}

/** GET /api/orders: the caller's orders as the customer (buying) or the seller (selling), newest first. */
export function listOrders(deps: Deps, user: UserRow, query: z.output<typeof ordersQuerySchema>): Promise<Page<Order>> {
  const params: ListParams = { viewer: user.id, ...(query.status && { status: query.status }) };
  return listPage(deps, { role: query.role, status: !!query.status, q: null }, params, query, user.id);
}

/** GET /api/admin/orders: every order; q finds by number (digits, "№12") or words of the title. */
export function adminListOrders(deps: Deps, admin: UserRow, query: z.output<typeof adminOrdersQuerySchema>): Promise<Page<Order>> {
  const params: ListParams = query.status ? { status: query.status } : {};
  const q = query.q?.trim();
  let found: ListShape['q'] = null;
  if (q) {
    const digits = /^№?\s*(\d{1,15})$/.exec(q);
    params.like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (digits) params.number = Number(digits[1]);
    found = digits ? 'number' : 'title';
  }
  return listPage(deps, { role: 'admin', status: !!query.status, q: found }, params, query, admin.id);
}

/** The order cards of order chats (ChatService's describeOrders): per order, the view of each member. */
export async function describeOrders(deps: Deps, orderIds: string[]): Promise<Map<string, OrderView>> {
  if (orderIds.length === 0) return new Map();
  const [rows, now] = await Promise.all([recordsByIds(deps.db).execute({ ids: orderIds }), times(deps)]);
  return new Map(rows.map((r) => [r.order.id, (viewerId: string) => presentChatOrder(r, viewerId, now)]));
}
