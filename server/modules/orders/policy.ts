import type { OrderRow } from '../../db/schema/money.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { ORDER_MESSAGES, type OrderAction } from '#contract/orders';

// Who may do what with an order (ADR 016). Its parties and admins know it exists; anyone else gets 404, as for an
// unknown id. A party asking for the other party's step (a buyer delivering, a seller accepting) and an admin
// asking for any step get 403. Whether the order's state allows the step now is the service's 409, and so are the
// customer's time rules of cancellation (timing below, shared with the order card's actions).

export interface OrderSubject {
  order: Pick<OrderRow, 'customerId' | 'sellerId'>;
}

const isCustomer = (actor: Actor, { order }: OrderSubject) => actor !== null && actor.id === order.customerId;
const isSeller = (actor: Actor, { order }: OrderSubject) => actor !== null && actor.id === order.sellerId;
const isParty = (actor: Actor, row: OrderSubject) => isCustomer(actor, row) || isSeller(actor, row);

/** A step only one side takes: that side may, the other side and admins are refused, anyone else does not know. */
const sideOnly = (side: 'customer' | 'seller') => (actor: Actor, row: OrderSubject) => {
  if (side === 'customer' ? isCustomer(actor, row) : isSeller(actor, row)) return 'allow' as const;
  if (isParty(actor, row) || isAdmin(actor)) return { forbidden: side === 'customer' ? ORDER_MESSAGES.customerOnly : ORDER_MESSAGES.sellerOnly };
  return 'hidden' as const;
};
const partiesOnly = (actor: Actor, row: OrderSubject) => {
  if (isParty(actor, row)) return 'allow' as const;
  return isAdmin(actor) ? { forbidden: ORDER_MESSAGES.partiesOnly } : ('hidden' as const);
};

export const orderPolicy = definePolicy<{
  view: OrderSubject;
  deliver: OrderSubject;
  revision: OrderSubject;
  accept: OrderSubject;
  cancel: OrderSubject;
  proposeCancel: OrderSubject;
  answerCancel: OrderSubject;
}>(ORDER_MESSAGES.notFound, {
  view: (actor, row) => (isParty(actor, row) || isAdmin(actor) ? 'allow' : 'hidden'),
  deliver: sideOnly('seller'),
  revision: sideOnly('customer'),
  accept: sideOnly('customer'),
  cancel: partiesOnly,
  proposeCancel: partiesOnly,
  answerCancel: partiesOnly,
});

// ---------------------------------------------------------------------------------------------------------------
// What the order's state and time allow (409 when not), and so what a party may do now.

export type OrderState = Pick<
  OrderRow,
  'customerId' | 'sellerId' | 'status' | 'paidAt' | 'deadlineAt' | 'revisionsLeft' | 'cancelProposedBy'
>;

/** Until when the customer may cancel a paid order without a reason. */
export const cancelWindowEnd = (order: Pick<OrderRow, 'paidAt'>, windowMinutes: number): Date | null =>
  order.paidAt ? new Date(order.paidAt.getTime() + windowMinutes * 60_000) : null;

/** Paid and not settled: the escrow holds the price. */
export const isOpenPaid = (status: OrderRow['status']) => status === 'in_progress' || status === 'delivered';

/**
 * Whether `userId` may cancel the order now, by the rules of PRODUCT.md: the customer while it awaits payment,
 * within the window after payment or once the deadline has passed; the seller at any time before it settles.
 * Answers null when they may, else why not.
 */
export function cancelRefusal(userId: string, order: OrderState, now: Date, windowMinutes: number): string | null {
  if (order.status === 'awaiting_payment') return userId === order.customerId ? null : userId === order.sellerId ? null : ORDER_MESSAGES.partiesOnly;
  if (!isOpenPaid(order.status)) return ORDER_MESSAGES.cannotCancel;
  if (userId === order.sellerId) return null;
  const windowEnd = cancelWindowEnd(order, windowMinutes);
  if (windowEnd && now < windowEnd) return null;
  if (order.deadlineAt && now >= order.deadlineAt) return null;
  return ORDER_MESSAGES.cancelLater;
}

/** The steps `userId` may take now (the order card's buttons); none for anyone but a party. */
export function actionsFor(userId: string, order: OrderState, now: Date, windowMinutes: number): OrderAction[] {
  const customer = userId === order.customerId;
  const seller = userId === order.sellerId;
  if (!customer && !seller) return [];
  const actions: OrderAction[] = [];
  if (customer && order.status === 'awaiting_payment') actions.push('pay');
  if (seller && order.status === 'in_progress') actions.push('deliver');
  if (customer && order.status === 'delivered') {
    actions.push('accept');
    if (order.revisionsLeft > 0) actions.push('revision');
  }
  if (cancelRefusal(userId, order, now, windowMinutes) === null) actions.push('cancel');
  if (isOpenPaid(order.status)) {
    if (!order.cancelProposedBy) actions.push('propose_cancel');
    else if (order.cancelProposedBy !== userId) actions.push('answer_cancel');
  }
  return actions;
}
