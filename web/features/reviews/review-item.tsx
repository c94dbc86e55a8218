import type { ReactNode } from 'react';
import type { Review } from '#contract/reviews';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { formatDate } from '../../lib/dates.ts';
import { aboutText, answerAuthorText, authorRoleText, personName } from './format.ts';
import { Stars } from './stars.tsx';

/**
 * One review: who wrote it (or, in one's own "given" list, about whom), the stars, the text, the service, the answer.
 * `children` go under it (the answer form, notes of one's own lists).
 */
export function ReviewItem({ review, about = false, showService = true, children }: { review: Review; about?: boolean; showService?: boolean; children?: ReactNode }) {
  const who = about ? review.target : review.author;
  const date = review.published_at ?? review.created_at;
  return (
    <article className="review" data-testid="review">
      <header className="review__head">
        <Avatar name={personName(who)} src={who.avatar} size={36} />
        <div className="review__who">
          <AppLink to={`/user/${who._id}`} className="review__name">
            {personName(who)}
          </AppLink>
          <span className="review__meta">
            {about ? aboutText(review) : authorRoleText(review)} · <time dateTime={date}>{formatDate(date)}</time>
          </span>
        </div>
        <Stars rating={review.rating} />
      </header>
      {review.text && <p className="review__text">{review.text}</p>}
      {showService && review.service && <p className="review__service">Услуга: {review.service.title}</p>}
      {review.answer && (
        <div className="review__answer">
          <p className="review__answer-who">{answerAuthorText(review)}</p>
          <p className="review__text">{review.answer.text}</p>
        </div>
      )}
      {children}
    </article>
  );
}
