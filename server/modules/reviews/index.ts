// Reviews: double-blind reviews of completed orders, answers, admin removal, and the ratings they make (ADR 029).
export { ReviewService, PUBLISH_REVIEWS_JOB, RATING_WINDOW_JOB, type ReviewServiceDeps } from './service.ts';
export { reviewRoutes } from './routes.ts';
export { reviewPolicy, reviewOrderPolicy, isVisibleReview } from './policy.ts';
export { reviewsModule } from './module.ts';
export { reviewsWrittenBy, eraseReviewTextsOf } from './personal-data.ts';
