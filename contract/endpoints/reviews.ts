import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { pageIdParams } from '../catalog.ts';
import {
  answerReviewSchema,
  createReviewSchema,
  myReviewsQuerySchema,
  pendingReviewsSchema,
  reviewAnswerSchema,
  reviewIdParamsSchema,
  reviewListSchema,
  reviewOrderParamsSchema,
  reviewsQuerySchema,
} from '../reviews.ts';

const tags = ['reviews'];

/**
 * Double-blind reviews of completed orders (ADR 029). Who may do what is server/modules/reviews/policy.ts: a
 * stranger to the order gets 404, an admin 403 for a party's step, a state that does not allow it 409.
 */
export const reviewEndpoints = defineEndpoints({
  'reviews.create': {
    access: 'confirmed',
    tags,
    summary: "A party reviews a completed order; hidden until the other party's review or the end of the blind period",
    params: reviewOrderParamsSchema,
    body: createReviewSchema,
    response: reviewAnswerSchema,
  },
  'reviews.answer': {
    access: 'confirmed',
    tags,
    summary: 'The person a published review is about answers it, once',
    params: reviewIdParamsSchema,
    body: answerReviewSchema,
    response: reviewAnswerSchema,
  },
  'reviews.mine': { access: 'user', tags, summary: 'Reviews I received (published) or gave (hidden ones too), newest first', query: myReviewsQuerySchema, response: reviewListSchema },
  'reviews.pending': { access: 'user', tags, summary: 'My completed orders waiting for my review', response: pendingReviewsSchema },
  // Page lookups: a malformed id is a 404 like an unknown one.
  'reviews.ofService': { access: 'public', tags, summary: "A service's published reviews, newest first", params: pageIdParams, query: reviewsQuerySchema, response: reviewListSchema },
  'reviews.ofUser': {
    access: 'public',
    tags,
    summary: 'Published reviews about a person (as a seller and as a customer), newest first',
    params: pageIdParams,
    query: reviewsQuerySchema,
    response: reviewListSchema,
  },
  'admin.reviews.remove': {
    access: 'admin',
    tags,
    summary: 'An admin removes a review (audited); the ratings are recomputed',
    params: reviewIdParamsSchema,
    response: okSchema(z.object({ _id: z.string() })),
  },
});
