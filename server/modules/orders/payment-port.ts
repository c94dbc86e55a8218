import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { orders, type OrderRow } from './schema.ts';
import { isUuid } from '../../lib/text.ts';
import type { Tx, TxContext } from '../../platform/tx.ts';
import { refusalOf } from './state.ts';
import { fundingRefusal, stagesOf, type FundingFacts } from './stages.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import type { OrderService } from './service.ts';

// The orders module's port for payments (ADR 025): what a payment needs to know of an order, and its one step,
// awaiting_payment → in_progress. Payments neither reads nor locks the orders table itself.

/** An order as payments sees it. */
export interface OrderToPay extends Pick<OrderRow, 'id' | 'number' | 'title' | 'headId' | 'package' | 'extras' | 'price' | 'commissionBp' | 'customerId' | 'sellerId' | 'status'> {
  /** Why it cannot be paid now (the state table's refusal of the customer's `pay`), or null when it can. */
  payRefusal: string | null;
}

/** An order as a payment's line names it. */
export type OrderLabel = Pick<OrderRow, 'id' | 'number' | 'title' | 'sellerId'>;

export interface OrderPaymentPort {
  /** The order's facts without a lock (the payment page, a quote); null for an unknown order. */
  find(db: Db | Tx, orderId: string): Promise<OrderToPay | null>;
  /**
   * The order's facts with its row locked until the transaction ends: every payer takes the order's lock first,
   * then the ledger's (ADR 025), so two payments of one order queue here.
   */
  lockForPayment(tx: Tx, orderId: string): Promise<OrderToPay | null>;
  /** awaiting_payment → in_progress in the payment's transaction: the order's chat opens, its seller is told. */
  markPaid(ctx: TxContext, order: OrderToPay): Promise<void>;
  /** The order cancelled because its card payment's safe deal ended first (ADR 058); false when not open and paid. */
  cancelAtDealEnd(ctx: TxContext, orderId: string): Promise<boolean>;
  /** The number, title and seller of these orders, by id (lists of payments and ledger entries). */
  labels(db: Db | Tx, orderIds: readonly string[]): Promise<Map<string, OrderLabel>>;
}

/** The pay row of the state table has no condition of time: the moment it is asked at does not matter. */
const ANY_MOMENT = { now: new Date(0), cancelWindowMinutes: 0 };

/**
 * A head of stages is never paid itself (ADR 065): its stages are, each by its own payment, in the agreed order
 * (`fundingRefusal`: a stage waits for the earlier ones not dropped).
 */
function toPay(row: OrderRow & { isHead: boolean; siblings: readonly FundingFacts[] }): OrderToPay {
  const { id, number, title, headId, package: pkg, extras, price, commissionBp, customerId, sellerId, status } = row;
  const payRefusal = row.isHead
    ? ORDER_MESSAGES.headNotPayable
    : (refusalOf('pay', 'customer', row, ANY_MOMENT) ?? (row.stage ? fundingRefusal(row.siblings, row.stage) : null));
  return { id, number, title, headId, package: pkg, extras, price, commissionBp, customerId, sellerId, status, payRefusal };
}


// Whether it is a head of stages, in the same statement (a head is never paid itself).
// Spelled out: a one-table select writes its columns without their table, which the subquery's would shadow.
const isHead = sql<boolean>`exists (select 1 from ${orders} as "stage" where "stage"."head_id" = "orders"."id")`;
const selectToPay = (db: Db) => db.select({ order: orders, isHead }).from(orders).where(eq(orders.id, sql.placeholder('id'))).limit(1);
// Every payment reads its order so, many with its lock: built once (server/db/prepared.ts).
const orderToPay = statement((db) => selectToPay(db).prepare('order_to_pay'));
const orderToPayLocked = statement((db) => selectToPay(db).for('update', { of: orders }).prepare('order_to_pay_locked'));

/** The port over the order service: its markPaid is called on the instance, so a wrapper put on it is honoured. */
export function orderPaymentPort(service: Pick<OrderService, 'markPaid' | 'cancelAtDealEnd'>): OrderPaymentPort {
  const read = async (db: Db | Tx, orderId: string, lock: boolean) => {
    if (!isUuid(orderId)) return null;
    const [found] = await (lock ? orderToPayLocked : orderToPay)(db).execute({ id: orderId });
    if (!found) return null;
    const row = found.order;
    // A stage's payment rolls its head up after the ledger's locks; every other step of a stage locks the head first
    // (rollUp). The head is locked here, before the ledger, so that all take stage → head → ledger (a deadlock else).
    if (lock && row.headId) await db.select({ id: orders.id }).from(orders).where(eq(orders.id, row.headId)).for('update');
    // A stage's earlier stages are read, not locked: a stage paid or dropped meanwhile only refuses more, never less.
    const siblings = row.headId ? await stagesOf(db, row.headId) : [];
    return toPay({ ...row, isHead: found.isHead, siblings });
  };
  return {
    find: (db, orderId) => read(db, orderId, false),
    lockForPayment: (tx, orderId) => read(tx, orderId, true),
    async markPaid(ctx, order) {
      await service.markPaid(ctx, order.id);
    },
    cancelAtDealEnd: (ctx, orderId) => service.cancelAtDealEnd(ctx, orderId),
    async labels(db, orderIds) {
      if (!orderIds.length) return new Map();
      const rows = await db
        .select({ id: orders.id, number: orders.number, title: orders.title, sellerId: orders.sellerId })
        .from(orders)
        .where(inArray(orders.id, [...new Set(orderIds)]));
      return new Map(rows.map((r) => [r.id, r]));
    },
  };
}
