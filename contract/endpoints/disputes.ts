import { defineEndpoints } from '../endpoint.ts';
import {
  adminDisputeListSchema,
  adminDisputesQuerySchema,
  createDisputeSchema,
  disputeAnswerSchema,
  disputeIdParamsSchema,
  myDisputesQuerySchema,
  myDisputesSchema,
  resolveDisputeSchema,
} from '../disputes.ts';

const tags = ['disputes'];
const params = disputeIdParamsSchema;
const response = disputeAnswerSchema;

/**
 * Disputes over orders (issue 14, ADR 034). Who may do what is server/modules/disputes/policy.ts: a stranger to the
 * order gets 404, the respondent cancelling 403, a state that does not allow it 409.
 */
export const disputeEndpoints = defineEndpoints({
  'disputes.create': {
    access: 'confirmed',
    tags,
    summary: 'A party opens a dispute on an order in progress or delivered; the order freezes in disputed',
    body: createDisputeSchema,
    response,
  },
  'disputes.mine': { access: 'user', tags, summary: 'My disputes (opened or answered), newest first, each with its chat', query: myDisputesQuerySchema, response: myDisputesSchema },
  'disputes.cancel': { access: 'user', tags, summary: 'The opener cancels an open dispute: the order returns to its previous state', params, response },
  'admin.disputes.list': {
    access: 'admin',
    tags,
    summary: 'The disputes queue: oldest open first; filters by state, the flag and an order number (keyset pages)',
    query: adminDisputesQuerySchema,
    response: adminDisputeListSchema,
  },
  'admin.disputes.get': { access: 'admin', tags, summary: 'A dispute with its order, parties and chat', params, response },
  'admin.disputes.take': { access: 'admin', tags, summary: "An admin joins the dispute's chat (the first one becomes its arbiter)", params, response },
  'admin.disputes.resolve': {
    access: 'admin',
    tags,
    summary: 'Refund, release or split by percent: the escrow settles in one transaction, the order ends',
    params,
    body: resolveDisputeSchema,
    response,
  },
});
