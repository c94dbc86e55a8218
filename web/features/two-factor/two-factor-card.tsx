import { useEffect, useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import type { TwoFactorSetupAnswer, TwoFactorStatus } from '#contract/two-factor';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { FormError, TextField, formValues } from '../../components/ui/form.tsx';

// /profile/settings: the second factor (ADR 054). Turning it on: the password, then the QR code and the secret as
// text, then a first code from the app; only then does it count, and the ten recovery codes are shown once.

type Errors = Record<string, string[]> | undefined;

/** One form's call: field errors under the fields, anything else above the button. */
function useCall() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>();
  const [formError, setFormError] = useState<string | null>(null);
  async function run<T>(send: () => Promise<{ data?: { result: T }; error?: { message: string; errors?: Errors } }>): Promise<T | undefined> {
    setBusy(true);
    const { data, error } = await send();
    setBusy(false);
    setErrors(error?.errors);
    setFormError(error && !error.errors ? error.message : null);
    return data?.result;
  }
  return { run, busy, errors, formError };
}

const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
/** The secret in groups of four, as it is easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="two-factor__codes" data-testid="recovery-codes">
      <p className="notice" role="status">
        Сохраните коды восстановления в надёжном месте — они показаны один раз. Каждый код срабатывает один раз, если
        телефон с приложением потерян.
      </p>
      <ul className="two-factor__code-list">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--primary" onClick={onDone}>
        Я сохранил коды
      </button>
    </div>
  );
}

function SetupForm({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [setup, setSetup] = useState<TwoFactorSetupAnswer | null>(null);
  const start = useCall();
  const confirm = useCall();
  async function begin(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { password = '' } = formValues(event.currentTarget);
    const answer = await start.run(() => api.write('auth.twoFactorSetup', { body: { password } }));
    if (answer) setSetup(answer);
  }
  async function finish(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    const answer = await confirm.run(() => api.write('auth.twoFactorEnable', { body: { code } }));
    if (answer) onEnabled(answer.recovery_codes);
  }
  if (!setup) {
    return (
      <form className="form" onSubmit={begin} noValidate aria-label="Подключение приложения">
        <p className="field__hint">
          При входе, выводе денег и смене email, пароля или реквизитов понадобится код из приложения-аутентификатора
          (Яндекс Ключ, Google Authenticator, Aegis и другие).
        </p>
        <TextField label="Пароль" name="password" type="password" autoComplete="current-password" required errors={start.errors} />
        <FormError message={start.formError} />
        <div>
          <button type="submit" className="btn btn--primary" disabled={start.busy}>
            Подключить приложение
          </button>
        </div>
      </form>
    );
  }
  return (
    <form className="form two-factor__setup" onSubmit={finish} noValidate aria-label="Подтверждение кода">
      <p className="field__hint">1. Отсканируйте QR-код в приложении-аутентификаторе или введите ключ вручную.</p>
      <img className="two-factor__qr" src={svgUrl(setup.qr_svg)} alt="QR-код для приложения-аутентификатора" width={200} height={200} />
      <p className="field__hint">
        Ключ: <code data-testid="totp-secret">{grouped(setup.secret)}</code>
      </p>
      <p className="field__hint">2. Введите шестизначный код, который показывает приложение.</p>
      <TextField label="Код из приложения" name="code" inputMode="numeric" autoComplete="one-time-code" required errors={confirm.errors} />
      <FormError message={confirm.formError} />
      <div>
        <button type="submit" className="btn btn--primary" disabled={confirm.busy}>
          Включить защиту
        </button>
      </div>
    </form>
  );
}

function EnabledForms({ status, onChanged, onCodes }: { status: TwoFactorStatus; onChanged: () => void; onCodes: (codes: string[]) => void }) {
  const off = useCall();
  const fresh = useCall();
  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { password = '', code = '' } = formValues(form);
    if (await off.run(() => api.write('auth.twoFactorDisable', { body: { password, code } }))) {
      toast('Двухфакторная защита выключена', { type: 'success' });
      form.reset();
      onChanged();
    }
  }
  async function regenerate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    const answer = await fresh.run(() => api.write('auth.recoveryCodes', { body: { code } }));
    if (answer) onCodes(answer.recovery_codes);
  }
  return (
    <>
      <p className="form-success" data-testid="two-factor-on">
        Защита включена. Осталось кодов восстановления: {status.recovery_codes_left}.
      </p>
      <form className="form" onSubmit={regenerate} noValidate aria-label="Новые коды восстановления">
        <TextField label="Код из приложения" name="code" inputMode="numeric" autoComplete="one-time-code" errors={fresh.errors} />
        <FormError message={fresh.formError} />
        <div>
          <button type="submit" className="btn btn--ghost" disabled={fresh.busy}>
            Получить новые коды восстановления
          </button>
        </div>
      </form>
      <form className="form" onSubmit={disable} noValidate aria-label="Выключение защиты">
        {status.required && <p className="notice">Для вашего аккаунта защита обязательна: без неё часть разделов будет недоступна.</p>}
        <div className="form__row">
          <TextField label="Пароль" name="password" type="password" autoComplete="current-password" errors={off.errors} />
          <TextField label="Код из приложения или код восстановления" name="code" autoComplete="one-time-code" errors={off.errors} />
        </div>
        <FormError message={off.formError} />
        <div>
          <button type="submit" className="btn btn--ghost" disabled={off.busy}>
            Выключить защиту
          </button>
        </div>
      </form>
    </>
  );
}

/** The settings card of the second factor. */
export function TwoFactorCard() {
  const revalidator = useRevalidator();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const load = () => void api.read('auth.twoFactor', undefined, { fresh: true }).then((a) => setStatus(a.result), () => setStatus(null));
  useEffect(load, []);
  function changed() {
    load();
    void revalidator.revalidate();
  }
  return (
    <section className="card two-factor" id="two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="card__title">
        Двухфакторная защита
      </h2>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : !status ? (
        <p className="field__hint">Загрузка…</p>
      ) : status.enabled ? (
        <EnabledForms status={status} onChanged={changed} onCodes={setCodes} />
      ) : (
        <>
          {status.required && <p className="notice">Для вашего аккаунта двухфакторная защита обязательна: включите её, чтобы продолжить.</p>}
          <SetupForm
            onEnabled={(next) => {
              toast('Двухфакторная защита включена', { type: 'success' });
              setCodes(next);
              changed();
            }}
          />
        </>
      )}
    </section>
  );
}
