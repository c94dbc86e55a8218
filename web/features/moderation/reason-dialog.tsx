import { useId, useState, type FormEvent } from 'react';
import type { ApiError } from '#contract/api';
import { Modal } from '../../components/ui/dialog.tsx';
import { REASON_MAX, reasonProblem, refusalText } from './decisions.ts';

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  /** What happens, in a sentence (who will see the reason). */
  text: string;
  confirmLabel: string;
  /** Sends the decision; an error keeps the dialog open with the message. */
  onConfirm: (reason: string) => Promise<ApiError | undefined>;
  onClose: () => void;
}

/** A decision that needs a reason (reject, hide): the reason goes to the owner in a letter and on their page. */
export function ReasonDialog(props: ReasonDialogProps) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose}>
      {/* Mounted per opening, so every decision starts with an empty reason. */}
      <ReasonForm {...props} />
    </Modal>
  );
}

function ReasonForm({ text, confirmLabel, onConfirm, onClose }: ReasonDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const tooShort = reasonProblem(reason);
    if (tooShort) return setError(tooShort);
    setBusy(true);
    const problem = await onConfirm(reason.trim());
    setBusy(false);
    if (problem) setError(refusalText(problem));
  }

  return (
    <form onSubmit={submit} noValidate className="form">
      <p className="modal__text" id={`${id}-text`}>
        {text}
      </p>
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label htmlFor={id} className="field__label">
          Причина
        </label>
        <textarea
          id={id}
          className="input input--area"
          value={reason}
          maxLength={REASON_MAX}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-text`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          placeholder="Например: в описании есть контакты для связи вне площадки"
        />
        {error && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          Отмена
        </button>
        <button type="submit" className="btn btn--danger" disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </form>
  );
}
