import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { PrivacyStatus } from '#contract/privacy';
import { api } from '../../lib/api.ts';
import { logout } from '../shell/index.ts';

/**
 * A new version of the consent text (ADR 052): the signed-in person cannot go on until they consent to it or sign
 * out. Escape does not close it; the text opens in a new tab so that the page under it stays.
 */
export function ConsentGate({ status }: { status: PrivacyStatus | null }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = status !== null && !status.consent.accepted;

  useEffect(() => {
    const el = dialog.current;
    if (el && open && !el.open) el.showModal();
    if (el && !open && el.open) el.close();
  }, [open]);

  if (!status || !open) return null;
  async function accept() {
    setBusy(true);
    const { error } = await api.write('privacy.accept', { body: { version: status!.consent.version } });
    setBusy(false);
    if (error) return setError(error.message);
    await revalidator.revalidate();
  }
  return (
    <dialog ref={dialog} className="modal" aria-labelledby="consent-gate-title" onCancel={(e) => e.preventDefault()} data-testid="consent-gate">
      <h2 id="consent-gate-title" className="modal__title">
        Обновлено согласие на обработку персональных данных
      </h2>
      <p className="modal__text">
        Мы опубликовали редакцию № {status.consent.version} документа «
        <a href="/consent" target="_blank" rel="noopener">
          {status.consent.title}
        </a>
        ». Чтобы продолжить пользоваться площадкой, прочитайте его и подтвердите согласие.
      </p>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={logout}>
          Выйти
        </button>
        <button type="button" className="btn btn--primary" onClick={accept} disabled={busy}>
          Принимаю
        </button>
      </div>
    </dialog>
  );
}
