import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Route } from './+types/recover';
import type { RecoverBody, ResetBody } from '#contract/auth';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { FormError, TextField, formValues } from '../components/ui/form.tsx';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Восстановление пароля');

/** /recover asks for the email; /recover?token=… (the link from the letter) sets a new password. */
export default function RecoverPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    const { data, error } = token
      ? await api.write('auth.reset', { body: { token, password: values.password, repeat_password: values.repeat_password } as ResetBody })
      : await api.write('auth.recover', { body: { email: values.email } as RecoverBody });
    setBusy(false);
    if (data) return setDone(data.result.message);
    setErrors(error.errors);
    setFormError(error.message);
  }

  return (
    <section className="page">
      <form className="form form--card" onSubmit={submit} noValidate>
        <h1 className="auth-page__title">{token ? 'Новый пароль' : 'Восстановление пароля'}</h1>
        {done ? (
          <>
            <p className="form-success" role="status">
              {done}
            </p>
            {token && (
              <AppLink to="/login" className="btn btn--primary btn--block">
                Войти с новым паролем
              </AppLink>
            )}
          </>
        ) : (
          <>
            {token ? (
              <>
                <TextField label="Новый пароль" name="password" type="password" autoComplete="new-password" required errors={errors} hint="Не короче 8 символов, буквы и цифры" />
                <TextField label="Повторите пароль" name="repeat_password" type="password" autoComplete="new-password" required errors={errors} />
              </>
            ) : (
              <>
                <p className="field__hint">Введите email, указанный при регистрации, — мы пришлём ссылку для смены пароля.</p>
                <TextField label="Email" name="email" type="email" autoComplete="email" required errors={errors} />
              </>
            )}
            <FormError message={formError} />
            <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
              {token ? 'Сохранить пароль' : 'Отправить ссылку'}
            </button>
          </>
        )}
        <p className="auth-page__alt">
          <AppLink to="/login">Вернуться ко входу</AppLink>
        </p>
      </form>
    </section>
  );
}
