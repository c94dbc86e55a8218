// Reviews (ADR 029): a review as people read it, the public pages' section, the forms of /profile/reviews and of the
// order card. The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).
export { AnswerForm } from './answer-form.tsx';
export { authorRoleText, personName, RATING_WORDS } from './format.ts';
export { ReviewForm } from './review-form.tsx';
export { ReviewItem } from './review-item.tsx';
export { ReviewsSection, type ReviewsPage } from './reviews-section.tsx';
export { Stars } from './stars.tsx';
