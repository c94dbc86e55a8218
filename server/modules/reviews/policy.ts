import type { ReviewRow } from './schema.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { REVIEW_MESSAGES } from '#contract/reviews';

// Who may do what with reviews (ADR 016, 029). A review is public once published and until an admin removes it;
// before, only its author (and admins) know it exists — not even the person it is about (double-blind). Reviewing
// an order is its parties' step: strangers are told the order does not exist, admins may not review for them.

export type ReviewSubject = Pick<ReviewRow, 'authorId' | 'targetId' | 'publishedAt' | 'removedAt' | 'answer'>;

/** Published and not removed: anyone may read it. */
export const isVisibleReview = (r: Pick<ReviewRow, 'publishedAt' | 'removedAt'>) => r.publishedAt !== null && r.removedAt === null;

const isAuthor = (actor: Actor, r: ReviewSubject) => actor !== null && actor.id === r.authorId;

/** Which order a review is of: its parties (its author and the person it is about) and admins know; nobody else. */
export const knowsReviewOrder = (actor: Actor, r: Pick<ReviewRow, 'authorId' | 'targetId'>) =>
  isAdmin(actor) || (actor !== null && (actor.id === r.authorId || actor.id === r.targetId));

export const reviewPolicy = definePolicy<{ view: ReviewSubject; answer: ReviewSubject }>(REVIEW_MESSAGES.notFound, {
  view: (actor, r) => (isVisibleReview(r) || isAdmin(actor) || (r.removedAt === null && isAuthor(actor, r)) ? 'allow' : 'hidden'),
  answer: (actor, r) => {
    if (isVisibleReview(r)) return actor !== null && actor.id === r.targetId ? 'allow' : { forbidden: REVIEW_MESSAGES.recipientOnly };
    // A hidden review: its author and admins know it, and may not answer; the person it is about does not know it.
    if (r.removedAt === null && (isAuthor(actor, r) || isAdmin(actor))) return { forbidden: REVIEW_MESSAGES.recipientOnly };
    return 'hidden';
  },
});

export const reviewOrderPolicy = definePolicy<{ review: { customerId: string; sellerId: string } }>(REVIEW_MESSAGES.orderNotFound, {
  review: (actor, order) => {
    if (actor && (actor.id === order.customerId || actor.id === order.sellerId)) return 'allow';
    return isAdmin(actor) ? { forbidden: REVIEW_MESSAGES.partiesOnly } : 'hidden';
  },
});
