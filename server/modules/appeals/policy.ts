import type { AppealRow } from './schema.ts';
import type { OrderRow } from '../orders/index.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { APPEAL_MESSAGES } from '#contract/appeals';

// Who may do what with an appeal (ADR 016, 035): it is its author's and the administration's. Anyone else is told
// it does not exist. Taking and answering are the admins' (the admin API's guard keeps everyone else out already;
// the rules below also say in which state each step is allowed: 409 otherwise).

export type AppealSubjectRow = Pick<AppealRow, 'authorId' | 'status'>;

const isAuthor = (actor: Actor, a: AppealSubjectRow) => actor !== null && actor.id === a.authorId;

export const appealPolicy = definePolicy<{ view: AppealSubjectRow; viewOwn: AppealSubjectRow; take: AppealSubjectRow; answer: AppealSubjectRow }>(
  APPEAL_MESSAGES.notFound,
  {
    view: (actor, a) => (isAuthor(actor, a) || isAdmin(actor) ? 'allow' : 'hidden'),
    // The author's own view (GET /api/appeals/{id}): admins read appeals in the admin area, so here they are told
    // it does not exist, as anyone else.
    viewOwn: (actor, a) => (isAuthor(actor, a) ? 'allow' : 'hidden'),
    take: (actor, a) => (isAdmin(actor) ? 'allow' : actor?.id === a.authorId ? 'forbidden' : 'hidden'),
    answer: (actor, a) => (isAdmin(actor) ? 'allow' : actor?.id === a.authorId ? 'forbidden' : 'hidden'),
  },
);

// What an appeal may name, beyond what the object's own module lets its author see (objects.ts answers 404
// otherwise, with the object's message).

/** An order: its parties only; nobody else's business, an admin's included (admins do not write appeals). */
export const mayNameOrder = (actor: Actor, order: Pick<OrderRow, 'customerId' | 'sellerId'>) =>
  actor !== null && (actor.id === order.customerId || actor.id === order.sellerId);

/** For a moderation objection (`own`), one's own service or project only. */
export const mayNameOwn = (actor: Actor, ownerId: string, own: boolean) => !own || (actor !== null && actor.id === ownerId);
