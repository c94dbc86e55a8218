import { z } from 'zod';
import { okSchema } from './api.ts';
import { keysetPageSchema } from './catalog.ts';
import { orderPartySchema } from './orders.ts';
import { REVIEW_MAX_TEXT, REVIEW_MESSAGES, REVIEW_ROLES } from './review-constants.ts';

// Reviews (ADR 029): the answers and requests of contract/endpoints/reviews.ts. The zod-free part is
// review-constants.ts.

export * from './review-constants.ts';

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export const reviewSchema = z.object({
  _id: z.string(),
  /** The order it is of: for its parties and admins only. */
  order_id: z.string().optional(),
  /** 1–5. */
  rating: z.number().int(),
  text: z.string(),
  /** The author's side of the order: a customer's review is about the seller, a seller's about the customer. */
  author_role: z.enum(REVIEW_ROLES),
  author: orderPartySchema,
  target: orderPartySchema,
  service: z.object({ _id: z.string(), title: z.string() }).nullable(),
  /** The one answer of the person it is about. */
  answer: z.object({ text: z.string(), created_at: z.string() }).nullable(),
  /** False while it waits for the other party's review or the end of the blind period (only its author sees it). */
  published: z.boolean(),
  /** When a hidden review becomes visible at the latest. */
  publish_at: z.string().nullable(),
  /** Whether the caller may answer it now. */
  can_answer: z.boolean(),
  created_at: z.string(),
  published_at: z.string().nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

/** A completed order the caller has not reviewed yet, while the window is open. */
export const pendingReviewSchema = z.object({
  order_id: z.string(),
  number: z.number().int(),
  title: z.string(),
  role: z.enum(REVIEW_ROLES),
  /** The other party: the one the review is about. */
  target: orderPartySchema,
  service_id: z.string().nullable(),
  completed_at: z.string(),
  /** Until when the review may be left. */
  until: z.string(),
  /** Whether the other party has already left theirs (it is still hidden). */
  other_reviewed: z.boolean(),
});
export type PendingReview = z.infer<typeof pendingReviewSchema>;

export const reviewListSchema = keysetPageSchema(reviewSchema).extend({ total: z.number().int() });
export const reviewAnswerSchema = okSchema(reviewSchema);
export const pendingReviewsSchema = okSchema(z.array(pendingReviewSchema));

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(50).default(10);

export const reviewIdParamsSchema = z.object({ id: z.uuid(REVIEW_MESSAGES.badId) });
export const reviewOrderParamsSchema = z.object({ id: z.uuid(REVIEW_MESSAGES.badId) });
export const reviewsQuerySchema = z.object({ cursor, limit });
export const myReviewsQuerySchema = z.object({ box: z.enum(['received', 'given']).default('received'), cursor, limit });
export type MyReviewsQuery = z.input<typeof myReviewsQuerySchema>;

export const createReviewSchema = z.object({
  rating: z.number({ error: REVIEW_MESSAGES.badRating }).int(REVIEW_MESSAGES.badRating).min(1, REVIEW_MESSAGES.badRating).max(5, REVIEW_MESSAGES.badRating),
  /** Required of the customer (at least reviews.minText characters), optional for the seller (ADR 029). */
  text: z
    .string()
    .trim()
    .max(REVIEW_MAX_TEXT, REVIEW_MESSAGES.tooLong(REVIEW_MAX_TEXT))
    .nullish()
    .transform((v) => v ?? ''),
});
export type CreateReviewInput = z.input<typeof createReviewSchema>;

export const answerReviewSchema = z.object({
  text: z.string({ error: REVIEW_MESSAGES.answerEmpty }).trim().min(1, REVIEW_MESSAGES.answerEmpty).max(REVIEW_MAX_TEXT, REVIEW_MESSAGES.tooLong(REVIEW_MAX_TEXT)),
});
