import { useEffect, useRef } from 'react';
import { logoutModal, useLogoutModalOpen } from './logout-store.ts';
import { logout } from './session.ts';

export function LogoutModal() {
  const open = useLogoutModalOpen();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="modal" aria-labelledby="logout-title" onClose={logoutModal.close}>
      <h2 id="logout-title" className="modal__title">
        Выйти из аккаунта?
      </h2>
      <p className="modal__text">Вы сможете снова войти в любой момент.</p>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={logoutModal.close}>
          Отмена
        </button>
        <button type="button" className="btn btn--primary" onClick={logout}>
          Выйти
        </button>
      </div>
    </dialog>
  );
}
