import { useId, useState, type FormEvent } from 'react';

export interface NoteFormProps {
  /** What happens, in a sentence (who will read the note). */
  text: string;
  label: string;
  placeholder: string;
  maxLength: number;
  confirmLabel: string;
  /** A refusal is red; a note that closes something is the primary button. */
  tone: 'danger' | 'primary';
  /** The note's problem before it is sent («too short»), or null. */
  check: (note: string) => string | null;
  /** Sends the note (trimmed); a message keeps the form open with it. */
  onConfirm: (note: string) => Promise<string | null>;
  onClose: () => void;
}

/**
 * A decision that needs a written note, inside a modal: a rejection's reason, a moderation's, a reconciliation
 * difference's resolution. Mount it per opening, so that every decision starts empty.
 */
export function NoteForm({ text, label, placeholder, maxLength, confirmLabel, tone, check, onConfirm, onClose }: NoteFormProps) {
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = check(note);
    if (problem) return setError(problem);
    setBusy(true);
    const refused = await onConfirm(note.trim());
    setBusy(false);
    if (refused) setError(refused);
  }

  return (
    <form onSubmit={submit} noValidate className="form">
      <p className="modal__text" id={`${id}-text`}>
        {text}
      </p>
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        <textarea
          id={id}
          className="input input--area"
          value={note}
          maxLength={maxLength}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-text`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
          onChange={(e) => {
            setNote(e.target.value);
            setError(null);
          }}
          placeholder={placeholder}
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
        <button type="submit" className={`btn btn--${tone}`} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </form>
  );
}
