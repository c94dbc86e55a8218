import { useState } from 'react';
import type { Dispute } from '#contract/disputes';
import { DISPUTE_OUTCOME_LABELS, DISPUTE_OUTCOMES, type DisputeOutcome } from '#contract/dispute-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { SplitAmounts } from './dispute-parts.tsx';
import { decisionConfirmText, decisionOf, resolveBody } from './rules.ts';

// The admin's decision of an open dispute (/admin/disputes).

/** Refund, release or split: the amounts each side gets are shown before the admin confirms. */
export function DecisionForm({ dispute, onDone }: { dispute: Dispute; onDone: (d: Dispute) => void }) {
  const [outcome, setOutcome] = useState<DisputeOutcome>('split');
  const [percent, setPercent] = useState('50');
  const [comment, setComment] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { percent: p, valid, split } = decisionOf(outcome, percent, dispute.order);

  async function resolve() {
    setBusy(true);
    const { data, error } = await api.write('admin.disputes.resolve', {
      params: { id: dispute._id },
      body: resolveBody(outcome, p, comment),
    });
    setBusy(false);
    setConfirming(false);
    if (error) {
      toast(error.errors?.seller_percent?.[0] ?? error.message);
      return;
    }
    toast('Решение принято', { type: 'success' });
    onDone(data.result);
  }

  return (
    <form
      className="form dispute-decision-form"
      data-testid="decision-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) setConfirming(true);
      }}
    >
      <fieldset className="field">
        <legend className="field__label">Решение</legend>
        {DISPUTE_OUTCOMES.map((o) => (
          <label key={o} className="check">
            <input type="radio" name="outcome" value={o} checked={outcome === o} onChange={() => setOutcome(o)} /> {DISPUTE_OUTCOME_LABELS[o]}
          </label>
        ))}
      </fieldset>
      {outcome === 'split' && (
        <label className="field">
          <span className="field__label">Доля исполнителя, %</span>
          <input
            className="input"
            name="seller_percent"
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            value={percent}
            aria-invalid={valid ? undefined : true}
            onChange={(e) => setPercent(e.target.value)}
          />
          {!valid && <span className="field__error">Целое число от 0 до 100</span>}
        </label>
      )}
      {valid && <SplitAmounts split={split} sellerPercent={p} testId="decision-preview" />}
      <label className="field">
        <span className="field__label">Комментарий для сторон (необязательно)</span>
        <textarea className="input input--area" maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} />
      </label>
      <div className="modal__actions">
        <button type="submit" className="btn btn--primary" disabled={!valid || busy}>
          Принять решение
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Подтвердить решение?"
        text={decisionConfirmText(split)}
        confirmLabel="Подтвердить"
        busy={busy}
        onConfirm={() => void resolve()}
        onClose={() => setConfirming(false)}
      />
    </form>
  );
}
