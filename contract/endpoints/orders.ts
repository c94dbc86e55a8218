import { defineEndpoints } from '../endpoint.ts';
import {
  adminOrdersQuerySchema,
  cancelAnswerSchema,
  cancelOrderSchema,
  cancelProposalSchema,
  createOrderSchema,
  deliverOrderSchema,
  orderAnswerSchema,
  orderIdParamsSchema,
  orderListSchema,
  ordersQuerySchema,
  revisionSchema,
} from '../orders.ts';

const tags = ['orders'];
const params = orderIdParamsSchema;
const response = orderAnswerSchema;

/**
 * Orders and their lifecycle (tag orders, ADR 025). Who may do what is server/modules/orders/policy.ts: a stranger
 * gets 404, the wrong party 403, a step the order's state does not allow 409.
 */
export const orderEndpoints = defineEndpoints({
  'orders.create': {
    access: 'confirmed',
    tags,
    summary: 'Order a service (package and extras by index); answers the order awaiting payment, with its chat',
    body: createOrderSchema,
    response,
  },
  'orders.list': { access: 'user', tags, summary: 'My orders, buying or selling, newest first (keyset pages)', query: ordersQuerySchema, response: orderListSchema },
  'orders.get': { access: 'user', tags, summary: 'An order with its deliveries (its parties and admins)', params, response },
  'orders.deliver': { access: 'confirmed', tags, summary: 'The seller delivers: in_progress → delivered', params, body: deliverOrderSchema, response },
  'orders.revision': { access: 'confirmed', tags, summary: 'The customer asks for a revision: delivered → in_progress', params, body: revisionSchema, response },
  'orders.accept': { access: 'confirmed', tags, summary: 'The customer accepts: delivered → completed, the seller is paid', params, response },
  'orders.cancel': { access: 'confirmed', tags, summary: 'Cancel (refunds the escrow when paid)', params, body: cancelOrderSchema, response },
  'orders.proposeCancel': { access: 'confirmed', tags, summary: 'Propose to the other party to cancel', params, body: cancelProposalSchema, response },
  'orders.answerCancel': { access: 'confirmed', tags, summary: "Answer the other party's cancellation proposal", params, body: cancelAnswerSchema, response },
  'admin.orders.list': {
    access: 'admin',
    tags,
    summary: 'Every order, newest first; q finds by number or title',
    query: adminOrdersQuerySchema,
    response: orderListSchema,
  },
  'admin.orders.get': { access: 'admin', tags, summary: 'Any order with its deliveries', params, response },
});
