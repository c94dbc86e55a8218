import { useId, useState } from 'react';
import type { Review, ReviewRole } from '#contract/reviews';
import { REVIEW_MAX_TEXT } from '#contract/review-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { RATING_WORDS, reviewFormTexts, savedReviewText } from './format.ts';
import { Star } from '../../components/ui/icons.tsx';

/**
 * A party's review of a completed order: 1–5 stars and a text (required of the customer, optional for the seller;
 * ADR 029). The review stays hidden until the other party's or the end of the period: the form says so.
 */
export function ReviewForm({ orderId, role, targetName, onDone }: { orderId: string; role: ReviewRole; targetName: string; onDone: (review: Review) => void }) {
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const texts = reviewFormTexts(role);
  const required = texts.required;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!rating) {
      setProblem('Поставьте оценку от 1 до 5');
      return;
    }
    setBusy(true);
    const { data, error } = await api.write('reviews.create', { params: { id: orderId }, body: { rating, text } });
    setBusy(false);
    if (error) {
      setProblem(error.errors?.text?.[0] ?? error.message);
      return;
    }
    toast(savedReviewText(data.result.published), { type: 'success' });
    onDone(data.result);
  }

  return (
    <form className="form review-form" onSubmit={(e) => void submit(e)} data-testid="review-form">
      <fieldset className="review-form__stars">
        <legend className="field__label">
          {texts.target}: {targetName} — ваша оценка
        </legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={`review-form__star${n <= rating ? ' review-form__star--on' : ''}`} title={RATING_WORDS[n]}>
            <input type="radio" name={`${id}-rating`} value={n} checked={rating === n} onChange={() => setRating(n)} className="visually-hidden" />
            <Star size={28} aria-hidden fill={n <= rating ? 'currentColor' : 'none'} />
            <span className="visually-hidden">
              {n} — {RATING_WORDS[n]}
            </span>
          </label>
        ))}
        <span className="review-form__word" aria-live="polite">
          {rating ? RATING_WORDS[rating] : ''}
        </span>
      </fieldset>
      <label className="field">
        <span className="field__label">{texts.textLabel}</span>
        <textarea
          className="input input--area"
          name="text"
          maxLength={REVIEW_MAX_TEXT}
          required={required}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={texts.placeholder}
        />
      </label>
      <p className="muted review-form__note">Отзыв нельзя изменить. Он станет виден, когда отзыв оставит и другая сторона, или когда истечёт срок для отзывов.</p>
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy}>
        Оставить отзыв
      </button>
    </form>
  );
}
