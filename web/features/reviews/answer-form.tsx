import { useState } from 'react';
import type { Review } from '#contract/reviews';
import { REVIEW_MAX_TEXT } from '#contract/review-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';

/** The one answer to a review about oneself. */
export function AnswerForm({ review, onDone }: { review: Review; onDone: (review: Review) => void }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <button type="button" className="btn btn--ghost btn--sm review__answer-btn" onClick={() => setOpen(true)}>
        Ответить
      </button>
    );
  }
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { data, error } = await api.write('reviews.answer', { params: { id: review._id }, body: { text } });
    setBusy(false);
    if (error) {
      toast(error.errors?.text?.[0] ?? error.message);
      return;
    }
    toast('Ответ опубликован', { type: 'success' });
    onDone(data.result);
  }
  return (
    <form className="form review__answer-form" onSubmit={(e) => void submit(e)}>
      <label className="field">
        <span className="field__label">Ваш ответ (его нельзя будет изменить)</span>
        <textarea className="input input--area" required maxLength={REVIEW_MAX_TEXT} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <div className="review__answer-actions">
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(false)}>
          Отмена
        </button>
        <button type="submit" className="btn btn--primary btn--sm" disabled={busy || !text.trim()}>
          Опубликовать ответ
        </button>
      </div>
    </form>
  );
}
