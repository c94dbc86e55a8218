import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { api } from '../../lib/api.ts';
import { Modal } from '../../components/ui/dialog.tsx';
import { FormError, TextField, formValues } from '../../components/ui/form.tsx';
import { settleStepUp, stepUpStore } from './step-up.ts';
import { passkeysSupported, stepUpWithPasskey } from '../passkeys/index.ts';

/** The code dialog of step-up: one code from the app (or a recovery code) confirms the next minutes' changes. */
export function StepUpDialog() {
  const asking = useSyncExternalStore(stepUpStore.subscribe, stepUpStore.get, stepUpStore.getServerSnapshot);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    setBusy(true);
    const { error } = await api.write('auth.stepUp', { body: { code } });
    setBusy(false);
    setErrors(error?.errors);
    setFormError(error && !error.errors ? error.message : null);
    if (!error) settleStepUp(true);
  }
  async function passkey() {
    setBusy(true);
    const { error } = await stepUpWithPasskey();
    setBusy(false);
    setFormError(error ?? null);
    if (!error) settleStepUp(true);
  }
  function close() {
    setErrors(undefined);
    setFormError(null);
    if (stepUpStore.get()) settleStepUp(false);
  }

  return (
    <Modal open={asking !== null} title="Подтвердите действие" onClose={close}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="modal__text">
          Введите код из приложения-аутентификатора или подтвердите ключом доступа. Подтверждение действует 5 минут.
        </p>
        <TextField
          label="Код"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          required
          errors={errors}
        />
        <FormError message={formError} />
        {passkeysSupported() && (
          <button type="button" className="btn btn--ghost btn--block" disabled={busy} onClick={passkey}>
            Подтвердить ключом доступа
          </button>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={close}>
            Отмена
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            Подтвердить
          </button>
        </div>
      </form>
    </Modal>
  );
}
