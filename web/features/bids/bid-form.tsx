import { useState, type FormEvent } from 'react';
import type { Bid } from '#contract/bids';
import { BID_COMMENT_MAX, BID_COMMENT_MIN_DEFAULT } from '#contract/bid-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Checkbox, FormError, TextField } from '../../components/ui/form.tsx';
import { charCount } from './format.tsx';
import { kopecksToRubles } from '../../lib/money.ts';
import { checkBidForm, commentCounter, emptyStage, stageDrafts, type BidErrors, type StageDraft } from './bid-rules.ts';
import { StagesEditor } from './stages-editor.tsx';

/** The seller's bid: a new one on the project, or an edit of theirs (price in rubles, days, a comment, maybe stages). */
export function BidForm({ projectId, bid, onSaved, onCancel }: { projectId: string; bid?: Bid; onSaved: (bid: Bid) => void; onCancel?: () => void }) {
  const [price, setPrice] = useState(bid ? kopecksToRubles(bid.price) : '');
  const [days, setDays] = useState(bid ? String(bid.days) : '');
  const [comment, setComment] = useState(bid?.comment ?? '');
  // The work in stages (ADR 065); off, the bid is one whole order as before.
  const [split, setSplit] = useState(!!bid?.stages);
  const [stages, setStages] = useState<StageDraft[]>(() => (bid?.stages ? stageDrafts(bid.stages) : [emptyStage(), emptyStage()]));
  const [errors, setErrors] = useState<BidErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const min = BID_COMMENT_MIN_DEFAULT;
  const counter = commentCounter(charCount(comment), min);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { errors: found, body } = checkBidForm({ price, days, comment }, split ? stages : null, min);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    const sent = bid ? await api.write('bids.update', { params: { id: bid._id }, body }) : await api.write('bids.create', { params: { id: projectId }, body });
    setBusy(false);
    if (sent.error) {
      setErrors(sent.error.errors ?? {});
      if (!sent.error.errors) setProblem(sent.error.message);
      return;
    }
    toast(bid ? 'Отклик изменён' : 'Отклик отправлен заказчику', { type: 'success' });
    onSaved(sent.data.result);
  };

  return (
    <form className="bid-form" onSubmit={submit} noValidate data-testid="bid-form">
      <div className="bid-form__row">
        <TextField label="Цена, руб." name="price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} errors={errors} required />
        <TextField label="Срок, дней" name="days" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} errors={errors} required />
      </div>
      <Checkbox label="Разбить на этапы" name="split" checked={split} onChange={(e) => setSplit(e.target.checked)} />
      {split && <StagesEditor stages={stages} setStages={setStages} errors={errors} price={price} days={days} />}
      <div className={`field${errors.comment ? ' field--invalid' : ''}`}>
        <label htmlFor="bid-comment" className="field__label">
          Комментарий
        </label>
        <textarea
          id="bid-comment"
          name="comment"
          className="input input--area"
          rows={6}
          value={comment}
          maxLength={BID_COMMENT_MAX + 100}
          onChange={(e) => setComment(e.target.value)}
          aria-describedby="bid-comment-count"
          aria-invalid={errors.comment ? true : undefined}
          placeholder="Расскажите, как выполните задачу, о своём опыте и похожих работах"
        />
        <p id="bid-comment-count" className={`field__hint bid-form__count${counter.short ? ' bid-form__count--short' : ''}`} aria-live="polite">
          {counter.text}
        </p>
        {errors.comment && (
          <p className="field__error" role="alert">
            {errors.comment[0]}
          </p>
        )}
      </div>
      <FormError message={problem} />
      <div className="bid-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {bid ? 'Сохранить' : 'Откликнуться'}
        </button>
        {onCancel && (
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            Отмена
          </button>
        )}
      </div>
    </form>
  );
}
