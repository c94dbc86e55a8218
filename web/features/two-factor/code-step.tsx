import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api.ts';
import { FormError, TextField, formValues } from '../../components/ui/form.tsx';
import { passkeysSupported, signInWithPasskey } from '../passkeys/index.ts';

// The sign-in's second step (ADR 054): the password was right, the account has a second factor.

export function CodeStep({
  challenge,
  methods = ['totp', 'recovery'],
  onToken,
  onBack,
}: {
  challenge: string;
  /** What the challenge may be answered with (ADR 054, 057). */
  methods?: string[];
  onToken: (token: string) => void;
  onBack: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);

  const withCode = methods.includes('totp') || methods.includes('recovery');

  async function passkey() {
    setBusy(true);
    const { result, error } = await signInWithPasskey(challenge);
    if (result) return onToken(result);
    setBusy(false);
    setFormError(error ?? null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.write('auth.loginTwoFactor', { body: { challenge, code } });
    if (data) return onToken(data.result);
    setBusy(false);
    setErrors(error.errors);
    setFormError(error.errors ? null : error.message);
  }

  return (
    <form className="form form--card" onSubmit={submit} noValidate aria-labelledby="code-step-title">
      <h1 id="code-step-title" className="auth-page__title">
        Код подтверждения
      </h1>
      <p className="field__hint">
        {!withCode
          ? 'Подтвердите вход ключом доступа: отпечатком пальца, лицом или PIN-кодом устройства.'
          : recovery
            ? 'Введите один из кодов восстановления, сохранённых при включении защиты. Каждый код срабатывает один раз.'
            : 'Откройте приложение-аутентификатор и введите шестизначный код для этого аккаунта.'}
      </p>
      {methods.includes('passkey') && passkeysSupported() && (
        <button type="button" className="btn btn--primary btn--block" disabled={busy} onClick={passkey}>
          Подтвердить ключом доступа
        </button>
      )}
      {withCode && (
        <TextField
          key={recovery ? 'recovery' : 'totp'}
          label={recovery ? 'Код восстановления' : 'Код из приложения'}
          name="code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          required
          errors={errors}
        />
      )}
      <FormError message={formError} />
      {withCode && (
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Войти
        </button>
      )}
      <div className="form__footer">
        {methods.includes('recovery') && (
          <button type="button" className="btn btn--quiet" onClick={() => setRecovery(!recovery)}>
            {recovery ? 'Ввести код из приложения' : 'Нет доступа к приложению?'}
          </button>
        )}
        <button type="button" className="btn btn--quiet" onClick={onBack}>
          Назад
        </button>
      </div>
    </form>
  );
}
