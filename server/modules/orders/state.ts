import { eq, isNotNull, ne, or, type SQL } from 'drizzle-orm';
import { orders, type OrderRow } from './schema.ts';
import { ORDER_MESSAGES, type OrderAction } from '#contract/orders';
import { PAID_STATUSES } from '#contract/order-states';

// The orders' lifecycle as one table (ADR 039): which side may take which step from which state, and on what
// conditions of the order and the time. The service's 409s (`refusalOf`) and the order card's buttons
// (`allowedActions`) both read it, so a button offers exactly what the server accepts. Who is a party at all
// (404 / 403) stays in policy.ts. The states that jobs, disputes, reviews and queries ask about are named here too,
// so that no other file compares `status` itself.

export type Side = 'customer' | 'seller';
type Status = OrderRow['status'];

/** What the rules look at. */
export type OrderFacts = Pick<
  OrderRow,
  'customerId' | 'sellerId' | 'status' | 'paidAt' | 'deadlineAt' | 'deliveredAt' | 'revisionsLeft' | 'cancelProposedBy'
>;

/** The moment a rule is asked at, with the operator's cancellation window (orders.cancelWindowMinutes). */
export interface Moment {
  now: Date;
  cancelWindowMinutes: number;
}

/** A condition of a row, with what the user is told when it is the first that fails. */
interface Condition {
  holds: (order: OrderFacts, side: Side, at: Moment) => boolean;
  refusal: string;
}

export interface OrderRule {
  action: OrderAction;
  by: readonly Side[];
  from: readonly Status[];
  if?: readonly Condition[];
  /** The rule in words (ADR 039 and the table's tests). */
  why: string;
}

/** Until when the customer may cancel a paid order without a reason. */
export const cancelWindowEnd = (order: Pick<OrderRow, 'paidAt'>, windowMinutes: number): Date | null =>
  order.paidAt ? new Date(order.paidAt.getTime() + windowMinutes * 60_000) : null;

/** Anything was ever delivered: `delivered_at` stays set through a revision (back to in_progress). */
const nothingDelivered: Condition = { holds: (o) => o.deliveredAt === null, refusal: ORDER_MESSAGES.deliveredNoCancel };
const withinWindow: Condition = {
  holds: (o, _side, at) => {
    const end = cancelWindowEnd(o, at.cancelWindowMinutes);
    return end !== null && at.now < end;
  },
  refusal: ORDER_MESSAGES.cancelLater,
};
/** Late is the seller's lateness only: the deadline passed (moved on by any dispute) with nothing delivered. */
const pastDeadline: Condition = {
  holds: (o, _side, at) => o.deadlineAt !== null && at.now >= o.deadlineAt,
  refusal: ORDER_MESSAGES.cancelLater,
};
const revisionsRemain: Condition = { holds: (o) => o.revisionsLeft > 0, refusal: ORDER_MESSAGES.noRevisionsLeft };
const noPendingProposal: Condition = {
  holds: (o) => o.cancelProposedBy === null,
  refusal: ORDER_MESSAGES.proposalPending,
};
const proposalByOther: Condition = {
  holds: (o, side) =>
    o.cancelProposedBy !== null && o.cancelProposedBy === (side === 'customer' ? o.sellerId : o.customerId),
  refusal: ORDER_MESSAGES.noProposal,
};

const BOTH = ['customer', 'seller'] as const satisfies readonly Side[];

/** Every step of an order. A step is allowed when one of its rows matches: side, state and every condition. */
export const ORDER_RULES: readonly OrderRule[] = [
  { action: 'pay', by: ['customer'], from: ['awaiting_payment'], why: 'the customer pays an order awaiting payment' },
  {
    action: 'deliver',
    by: ['seller'],
    from: ['in_progress'],
    why: 'the seller delivers an order in progress (again after a revision)',
  },
  { action: 'accept', by: ['customer'], from: ['delivered'], why: 'the customer accepts a delivery' },
  {
    action: 'revision',
    by: ['customer'],
    from: ['delivered'],
    if: [revisionsRemain],
    why: 'the customer sends a delivery back while revisions remain',
  },
  {
    action: 'cancel',
    by: BOTH,
    from: ['awaiting_payment'],
    why: 'an unpaid order: either side drops it, no money moves',
  },
  {
    action: 'cancel',
    by: ['seller'],
    from: PAID_STATUSES,
    why: 'the seller may give the money back at any time before settling (it counts against them)',
  },
  {
    action: 'cancel',
    by: ['customer'],
    from: PAID_STATUSES,
    if: [nothingDelivered, withinWindow],
    why: 'the customer changes their mind within the window after payment, before anything was delivered',
  },
  {
    action: 'cancel',
    by: ['customer'],
    from: PAID_STATUSES,
    if: [nothingDelivered, pastDeadline],
    why: 'the seller is late: nothing delivered by the deadline, which time in a dispute extends',
  },
  {
    action: 'propose_cancel',
    by: BOTH,
    from: PAID_STATUSES,
    if: [noPendingProposal],
    why: 'either side proposes a cancellation of a paid order; one at a time',
  },
  {
    action: 'answer_cancel',
    by: BOTH,
    from: PAID_STATUSES,
    if: [proposalByOther],
    why: 'the other side accepts or declines a pending proposal (a mutual cancellation refunds)',
  },
];

/** The steps in the table's order (the order of the card's buttons). */
const STEPS: readonly OrderAction[] = [...new Set(ORDER_RULES.map((r) => r.action))];

/** A step asked for in a state none of its rows starts from. */
function wrongState(action: OrderAction, status: Status): string {
  if (status === 'disputed' && action !== 'pay') return ORDER_MESSAGES.disputed;
  switch (action) {
    case 'pay':
      return ORDER_MESSAGES.notAwaitingPayment;
    case 'deliver':
      return ORDER_MESSAGES.notInProgress;
    case 'accept':
    case 'revision':
      return ORDER_MESSAGES.notDelivered;
    case 'propose_cancel':
      return status === 'awaiting_payment' ? ORDER_MESSAGES.notPaid : ORDER_MESSAGES.cannotCancel;
    case 'answer_cancel':
      return ORDER_MESSAGES.noProposal;
    case 'cancel':
      return ORDER_MESSAGES.cannotCancel;
  }
}

/** The side `userId` takes in the order, or null for anyone else. */
export const sideOf = (userId: string, order: Pick<OrderRow, 'customerId' | 'sellerId'>): Side | null =>
  userId === order.customerId ? 'customer' : userId === order.sellerId ? 'seller' : null;

/**
 * Why `side` may not take `action` now (the service's 409), or null when a row allows it. Of the rows that start
 * from the order's state, the first condition that fails speaks; with none, the state does.
 */
export function refusalOf(action: OrderAction, side: Side, order: OrderFacts, at: Moment): string | null {
  const rows = ORDER_RULES.filter((r) => r.action === action && r.by.includes(side) && r.from.includes(order.status));
  let first: string | null = null;
  for (const row of rows) {
    const failed = row.if?.find((c) => !c.holds(order, side, at));
    if (!failed) return null;
    first ??= failed.refusal;
  }
  return first ?? wrongState(action, order.status);
}

/** The steps `userId` may take now (the order card's buttons): none for anyone but a party. */
export function allowedActions(userId: string, order: OrderFacts, at: Moment): OrderAction[] {
  const side = sideOf(userId, order);
  if (!side) return [];
  return STEPS.filter((action) => refusalOf(action, side, order, at) === null);
}

// ---------------------------------------------------------------------------------------------------------------
// Where an order stands, for the steps outside the table (jobs, disputes, reviews, the card's clocks).

export { isAwaitingPayment, isCompleted, isDelivered, isDisputed, isInProgress, isOpenPaid } from '#contract/order-states';

/**
 * An unpaid order of a service (not of an accepted bid, nor a stage, ADR 065): its seller does not know of it until it is paid
 * (ADR 042), so it has no chat yet and the seller is no party to it.
 */
export const isDraft = (order: Pick<OrderRow, 'bidId' | 'offerId' | 'headId' | 'paidAt'>) =>
  order.bidId === null && order.offerId === null && order.headId === null && order.paidAt === null;

/** The same states as conditions on the orders table, for queries. */
export const awaitingPaymentSql: SQL = eq(orders.status, 'awaiting_payment');
export const completedSql: SQL = eq(orders.status, 'completed');
export const notCancelledSql: SQL = ne(orders.status, 'cancelled');
/** Not a draft (isDraft): a seller's orders are these. */
export const notDraftSql: SQL = or(isNotNull(orders.bidId), isNotNull(orders.offerId), isNotNull(orders.headId), isNotNull(orders.paidAt))!;
