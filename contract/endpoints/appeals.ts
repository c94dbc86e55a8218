import { defineEndpoints } from '../endpoint.ts';
import {
  adminAppealsQuerySchema,
  answerAppealSchema,
  appealAnswerSchema,
  appealIdParamsSchema,
  appealListSchema,
  appealTargetQuerySchema,
  appealTargetSchema,
  createAppealSchema,
  myAppealsQuerySchema,
} from '../appeals.ts';

const tags = ['appeals'];

/**
 * Appeals to the administration (issue 14, ADR 035). Who may do what is server/modules/appeals/policy.ts: an appeal
 * is its author's and the admins'; anyone else is told it does not exist (404). The object an appeal names must
 * exist and be one the author may see (404 otherwise), and not the author's own for a complaint (400).
 */
export const appealEndpoints = defineEndpoints({
  'appeals.create': {
    access: 'user',
    tags,
    summary: 'A member writes to the administration: a complaint, an objection to a decision, or a question',
    description: 'Limited per account and per address to the operator setting appeals.perDay a day (429 beyond).',
    body: createAppealSchema,
    response: appealAnswerSchema,
  },
  'appeals.mine': { access: 'user', tags, summary: 'My appeals, newest first', query: myAppealsQuerySchema, response: appealListSchema },
  'appeals.target': {
    access: 'user',
    tags,
    summary: 'The object a new appeal would name (the prefilled form), checked as a create would check it',
    query: appealTargetQuerySchema,
    response: appealTargetSchema,
  },
  'appeals.get': { access: 'user', tags, summary: 'One of my appeals', params: appealIdParamsSchema, response: appealAnswerSchema },
  'admin.appeals.list': {
    access: 'admin',
    tags,
    summary: 'Every appeal, by state, subject and words, newest first',
    query: adminAppealsQuerySchema,
    response: appealListSchema,
  },
  'admin.appeals.get': { access: 'admin', tags, summary: 'One appeal', params: appealIdParamsSchema, response: appealAnswerSchema },
  'admin.appeals.take': { access: 'admin', tags, summary: 'An admin takes a new appeal (→ in_progress)', params: appealIdParamsSchema, response: appealAnswerSchema },
  'admin.appeals.answer': {
    access: 'admin',
    tags,
    summary: 'An admin answers and closes an appeal (audited); the author gets a notification and a letter',
    params: appealIdParamsSchema,
    body: answerAppealSchema,
    response: appealAnswerSchema,
  },
});
