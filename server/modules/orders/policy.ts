import type { OrderRow } from './schema.ts';
import type { ServiceForOrder } from '../services/index.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { ORDER_MESSAGES, type OrderAction } from '#contract/orders';
import { allowedActions, isDraft, type Moment, type OrderFacts } from './state.ts';

// Who may do what with an order (ADR 016). Its parties and admins know it exists; anyone else gets 404, as for an
// unknown id. A party asking for the other party's step (a buyer delivering, a seller accepting) and an admin
// asking for any step get 403. Whether the order's state and time allow the step now is the service's 409, by the
// lifecycle's table (state.ts), which the order card's actions read too.

export interface OrderSubject {
  order: Pick<OrderRow, 'customerId' | 'sellerId' | 'bidId' | 'offerId' | 'headId' | 'paidAt'> & Partial<Pick<OrderRow, 'cancelProposedBy'>>;
}

const isCustomer = (actor: Actor, { order }: OrderSubject) => actor !== null && actor.id === order.customerId;
// A draft (a service's order never paid) is not yet the seller's: they do not learn it exists (ADR 042).
const isSeller = (actor: Actor, { order }: OrderSubject) => actor !== null && actor.id === order.sellerId && !isDraft(order);
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
  // The proposer does not answer their own proposal: the other side does.
  answerCancel: (actor, row) => {
    if (actor !== null && row.order.cancelProposedBy === actor.id) return { forbidden: ORDER_MESSAGES.ownProposal };
    return partiesOnly(actor, row);
  },
});

/** A service ordered from its page, with whether its seller may take orders at all. */
export interface CheckoutSubject {
  service: Pick<ServiceForOrder, 'status' | 'sellerId'>;
  /** Blocked (or gone): their services are nobody's to order. */
  sellerBlocked: boolean;
}

/**
 * Who may order a service: anyone but its seller, while it is public. A service that is not (or whose seller is
 * blocked) is unknown to anyone but its seller; its seller is refused their own.
 */
export const checkoutPolicy = definePolicy<{ order: CheckoutSubject }>(ORDER_MESSAGES.serviceNotFound, {
  order: (actor, { service, sellerBlocked }) => {
    const own = actor !== null && actor.id === service.sellerId;
    if (service.status !== 'active' && !own) return 'hidden';
    if (own) return { forbidden: ORDER_MESSAGES.ownService };
    return sellerBlocked ? 'hidden' : 'allow';
  },
});

// ---------------------------------------------------------------------------------------------------------------
// What the order's state and time allow (409 when not) is the lifecycle's table, state.ts (ADR 039).

/** The steps `userId` may take now (the order card's buttons); none for anyone but a party. */
export const actionsFor = (userId: string, order: OrderFacts, at: Moment): OrderAction[] => allowedActions(userId, order, at);
