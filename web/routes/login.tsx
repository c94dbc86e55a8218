import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Route } from './+types/login';
import type { LoginBody } from '#contract/auth';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Checkbox, FormError, TextField, formValues } from '../components/ui/form.tsx';
import { loginErrorText, signIn } from '../features/auth/index.ts';
import { CodeStep } from '../features/two-factor/index.ts';
import { signInWithPasskey, usePasskeysSupported } from '../features/passkeys/index.ts';

/** What the page says to a guest sent here by an action that needs an account (loginPath's reason). */
const LOGIN_REASONS: Record<string, string> = {
  favorite: 'Войдите, чтобы сохранить',
};

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Вход');

export default function LoginPage() {
  const [params] = useSearchParams();
  const reason = LOGIN_REASONS[params.get('reason') ?? ''];
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  /** The password was right and the account has a second factor: its challenge, and whether to remember the session. */
  const [second, setSecond] = useState<{ challenge: string; methods: string[]; remember: boolean } | null>(null);
  /** Known after hydration: the server cannot tell whether the browser has WebAuthn. */
  const withPasskey = usePasskeysSupported();
  const target = params.get('from') ?? '/';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.write('auth.login', {
      body: { email: values.email, password: values.password } as LoginBody,
    });
    const remember = values.remember === 'on';
    if (data) {
      const { result } = data;
      if (typeof result === 'string') return signIn(result, remember, target);
      setBusy(false);
      return setSecond({ challenge: result.two_factor.challenge, methods: result.two_factor.methods, remember });
    }
    setBusy(false);
    const text = loginErrorText(error);
    toast(text);
    setErrors(error.status === 400 ? error.errors : undefined);
    // The toast says what SPEC says; a blocked account or a pause after many attempts is explained here.
    setFormError(error.status === 400 ? text : error.message);
  }

  /** «Войти с ключом доступа»: a discoverable passkey, no email or password (ADR 057). */
  async function passkey(remember: boolean) {
    setBusy(true);
    const { result, error } = await signInWithPasskey();
    if (result) return signIn(result, remember, target);
    setBusy(false);
    setFormError(error ?? null);
  }

  if (second) {
    return (
      <section className="page">
        <CodeStep
          challenge={second.challenge}
          methods={second.methods}
          onToken={(token) => signIn(token, second.remember, target)}
          onBack={() => setSecond(null)}
        />
      </section>
    );
  }

  return (
    <section className="page">
      <form className="form form--card" onSubmit={submit} noValidate>
        <h1 className="auth-page__title">Вход</h1>
        {reason && (
          <p className="notice" role="status">
            {reason}
          </p>
        )}
        <TextField label="Email" name="email" type="email" autoComplete="email" required errors={errors} />
        <TextField
          label="Пароль"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          errors={errors}
        />
        <div className="form__footer">
          <Checkbox name="remember" label="Запомнить меня" defaultChecked />
          <AppLink to="/recover">Забыли пароль?</AppLink>
        </div>
        <FormError message={formError} />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Войти
        </button>
        {withPasskey && (
          <button
            type="button"
            className="btn btn--ghost btn--block"
            disabled={busy}
            onClick={(e) =>
              passkey(
                (e.currentTarget.form?.elements.namedItem('remember') as HTMLInputElement | null)?.checked ?? true,
              )
            }
          >
            Войти с ключом доступа
          </button>
        )}
        <p className="auth-page__alt">
          Нет аккаунта? <AppLink to="/reg">Зарегистрироваться</AppLink>
        </p>
      </form>
    </section>
  );
}
