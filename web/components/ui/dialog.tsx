import { useEffect, useId, useRef, type ReactNode } from 'react';

// A modal <dialog> with a heading (its accessible name): the browser traps focus, Escape closes it, and focus
// returns to where it was.

export interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Describes the dialog for screen readers (the id of its text). */
  describedBy?: string;
}

export function Modal({ open, title, onClose, children, describedBy }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="modal" aria-labelledby={titleId} aria-describedby={describedBy} onClose={onClose}>
      <h2 id={titleId} className="modal__title">
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" with Отмена first, so Enter on the opened dialog never destroys anything. */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  busy,
  danger,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const textId = useId();
  return (
    <Modal open={open} title={title} onClose={onClose} describedBy={textId}>
      <p id={textId} className="modal__text">
        {text}
      </p>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose} autoFocus>
          Отмена
        </button>
        <button
          type="button"
          className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`}
          onClick={onConfirm}
          disabled={busy}
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
