import type { DisputeRow } from './schema.ts';
import type { OrderRow } from '../orders/index.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { DISPUTE_MESSAGES } from '#contract/disputes';

// Who may do what with disputes (ADR 016, 034). A dispute is known to the two parties of its order and to every
// admin; anyone else gets 404, as for an unknown id. Only its opener cancels it (the respondent and admins 403).
// Opening one is a party's step: a stranger to the order is told it does not exist, an admin may not open one for
// a party. Whether the state allows a step now is the service's 409.

export type DisputeSubject = Pick<DisputeRow, 'openedBy' | 'respondentId'>;

const isParty = (actor: Actor, d: DisputeSubject) => actor !== null && (actor.id === d.openedBy || actor.id === d.respondentId);

export const disputePolicy = definePolicy<{ view: DisputeSubject; cancel: DisputeSubject; arbitrate: DisputeSubject }>(DISPUTE_MESSAGES.notFound, {
  view: (actor, d) => (isParty(actor, d) || isAdmin(actor) ? 'allow' : 'hidden'),
  // Take and resolve: the admins' (the endpoint's guard keeps everyone else out already).
  arbitrate: (actor, d) => (isAdmin(actor) ? 'allow' : isParty(actor, d) ? 'forbidden' : 'hidden'),
  cancel: (actor, d) => {
    if (actor !== null && actor.id === d.openedBy) return 'allow';
    return isParty(actor, d) || isAdmin(actor) ? { forbidden: DISPUTE_MESSAGES.openerOnly } : 'hidden';
  },
});

export const disputeOrderPolicy = definePolicy<{ open: Pick<OrderRow, 'customerId' | 'sellerId'> }>(DISPUTE_MESSAGES.orderNotFound, {
  open: (actor, order) => {
    if (actor && (actor.id === order.customerId || actor.id === order.sellerId)) return 'allow';
    return isAdmin(actor) ? { forbidden: DISPUTE_MESSAGES.partiesOnly } : 'hidden';
  },
});
