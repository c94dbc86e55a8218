import type { ReviewRow } from './schema.ts';
import type { Actor } from '../../platform/policy.ts';
import type { Review } from '#contract/reviews';
import type { OrderParty } from '#contract/orders';
import { isVisibleReview, knowsReviewOrder } from './policy.ts';

// Rows → the reviews API's documents. Pure: the service reads what they need.

type Person = { id: string; name: string; surname: string; userName: string; avatar: string | null };

export interface ReviewRecord {
  review: ReviewRow;
  author: Person;
  target: Person;
  service: { id: string; title: string } | null;
  completedAt: Date | null;
}

const party = (u: Person): OrderParty => ({ _id: u.id, name: u.name, surname: u.surname, user_name: u.userName, avatar: u.avatar });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentReview(r: ReviewRecord, viewer: Actor, blindDays: number): Review {
  const v = r.review;
  const visible = isVisibleReview(v);
  return {
    _id: v.id,
    ...(knowsReviewOrder(viewer, v) ? { order_id: v.orderId } : {}),
    rating: v.rating,
    text: v.text,
    author_role: v.authorRole,
    author: party(r.author),
    target: party(r.target),
    service: r.service && r.service.id ? { _id: r.service.id, title: r.service.title } : null,
    answer: v.answer !== null && v.answeredAt ? { text: v.answer, created_at: v.answeredAt.toISOString() } : null,
    published: visible,
    publish_at: !v.publishedAt && r.completedAt ? new Date(r.completedAt.getTime() + blindDays * 86_400_000).toISOString() : null,
    can_answer: visible && v.answer === null && viewer !== null && viewer.id === v.targetId,
    created_at: v.createdAt.toISOString(),
    published_at: iso(v.publishedAt),
  };
}
