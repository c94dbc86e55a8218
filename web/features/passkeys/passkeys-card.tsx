import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import type { Passkey } from '#contract/passkeys';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { FormError, TextField, formValues } from '../../components/ui/form.tsx';
import type { Sent } from '../../lib/api.ts';
import { createPasskey, usePasskeysSupported } from './webauthn.ts';

// /profile/settings: the person's passkeys (ADR 057). Adding one asks for a step-up first when the account has a
// second factor (the step-up dialog, mounted by the page); a passkey then counts as a second factor itself.

/** Sends a change, asking for a step-up when the server wants one (the two-factor feature's withStepUp). */
type StepUp = <A>(send: () => Promise<Sent<A>>) => Promise<Sent<A>>;

export function PasskeysCard({ passkeys: list, withStepUp }: { passkeys: Passkey[]; withStepUp: StepUp }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const supported = usePasskeysSupported();
  const load = () => revalidator.revalidate();

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { name = '' } = formValues(form);
    setBusy(true);
    setErrors(undefined);
    setFormError(null);
    const options = await withStepUp(() => api.write('auth.passkeyOptions'));
    if (options.error) {
      setBusy(false);
      return setFormError(options.error.message);
    }
    const ceremony = await createPasskey(options.data.result);
    if (ceremony.error !== undefined) {
      setBusy(false);
      return setFormError(ceremony.error);
    }
    const added = await api.write('auth.passkeyAdd', { body: { name, response: ceremony.response } });
    setBusy(false);
    if (added.error) {
      setErrors(added.error.errors);
      return setFormError(added.error.errors ? null : added.error.message);
    }
    form.reset();
    toast('Ключ доступа добавлен', { type: 'success' });
    await load();
  }

  async function remove(passkey: Passkey) {
    setBusy(true);
    const { error } = await withStepUp(() => api.write('auth.passkeyRemove', { params: { id: passkey._id } }));
    setBusy(false);
    if (error) return toast(error.message);
    toast('Ключ доступа удалён', { type: 'success' });
    await load();
  }

  return (
    <section className="card settings__card" id="passkeys" aria-labelledby="passkeys-title" data-testid="passkeys-card">
      <h2 id="passkeys-title" className="card__title">
        Ключи доступа
      </h2>
      <p className="field__hint">
        Ключ доступа — вход по отпечатку пальца, лицу или PIN-коду устройства, без пароля. Он же подтверждает вход и
        важные действия как второй фактор.
      </p>
      {list.length > 0 && (
        <ul className="sessions">
          {list.map((p) => (
            <li key={p._id} className="sessions__item" data-testid="passkey">
              <div className="sessions__what">
                <strong>{p.name}</strong>
                <div className="field__hint" suppressHydrationWarning>
                  Добавлен {formatDateTime(p.created_at)}
                  {p.last_used_at ? ` · использован ${formatDateTime(p.last_used_at)}` : ' · ещё не использован'}
                </div>
              </div>
              <button
                type="button"
                className="btn btn--ghost"
                disabled={busy}
                onClick={() => remove(p)}
                aria-label={`Удалить ключ доступа «${p.name}»`}
              >
                Удалить
              </button>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form className="form" onSubmit={add} noValidate>
          <TextField
            label="Название ключа"
            name="name"
            placeholder="Например, «Ноутбук»"
            maxLength={60}
            required
            errors={errors}
          />
          <FormError message={formError} />
          <button type="submit" className="btn btn--primary" disabled={busy}>
            Добавить ключ доступа
          </button>
        </form>
      ) : (
        <p className="notice">Этот браузер не поддерживает ключи доступа.</p>
      )}
    </section>
  );
}
