import { defineModule } from '../../platform/module.ts';
import { ReviewService } from './service.ts';
import { PUBLISH_REVIEWS_JOB } from './publication.ts';
import { reviewRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    reviews: ReviewService;
  }
}

export const reviewsModule = defineModule({
  name: 'reviews',
  create: ({ db, services: { platform, settings, letters } }) => ({ reviews: new ReviewService({ db, platform, settings, letters }) }),
  routes: (app, { services: { reviews }, reads }) => app.register(reviewRoutes, { reviews, reads }),
  // Both reviews of an order are published together, or when the window ends (ADR 029).
  subscribe({ services: { platform, reviews } }) {
    platform.dispatcher.handle<{ orderId: string }>(PUBLISH_REVIEWS_JOB, (payload, job) => job.withTx((ctx) => reviews.publishDue(ctx, payload.orderId)));
  },
  // Ratings are means of the reviews of the last months (ADR 029): daily, those a review has left are recomputed.
  recurring: [{ job: 'reviews-rating-window', everyMs: 24 * 60 * 60_000, run: ({ services: { reviews } }) => reviews.refreshRatingWindow() }],
});
