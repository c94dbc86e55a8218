import type { AppealRow } from '../../db/schema/appeals.ts';
import { definePolicy, isAdmin } from '../../platform/policy.ts';
import { APPEAL_MESSAGES } from '#contract/appeals';

// Who may do what with an appeal (ADR 016, 035): it is its author's and the administration's. Anyone else is told
// it does not exist. Taking and answering are the admins' (the admin API's guard keeps everyone else out already;
// the rules below also say in which state each step is allowed: 409 otherwise).

export type AppealSubjectRow = Pick<AppealRow, 'authorId' | 'status'>;

export const appealPolicy = definePolicy<{ view: AppealSubjectRow; take: AppealSubjectRow; answer: AppealSubjectRow }>(APPEAL_MESSAGES.notFound, {
  view: (actor, a) => (actor !== null && (actor.id === a.authorId || isAdmin(actor)) ? 'allow' : 'hidden'),
  take: (actor, a) => (isAdmin(actor) ? 'allow' : actor?.id === a.authorId ? 'forbidden' : 'hidden'),
  answer: (actor, a) => (isAdmin(actor) ? 'allow' : actor?.id === a.authorId ? 'forbidden' : 'hidden'),
});
