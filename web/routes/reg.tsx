import { useCallback, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Route } from './+types/reg';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Checkbox, FormError, TextField, formValues } from '../components/ui/form.tsx';
import { BotCheck, registerErrorText, registerFieldErrors, signIn, storedReferralCode } from '../features/auth/index.ts';
import { registerSchema, type RegisterBody } from '#contract/auth';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Регистрация');

export default function RegisterPage() {
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  const onToken = useCallback((t: string) => setToken(t), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    // 152-ФЗ: the consent is its own tick, never pre-ticked (ADR 052); unticked, the schema refuses it.
    const consent = (form.elements.namedItem('personal_data_consent') as HTMLInputElement | null)?.checked === true;
    const body = { ...values, personal_data_consent: consent, 'cf-turnstile-response': token, referralCode: storedReferralCode() };
    // The same rules as the server, so most mistakes show at once without a round trip.
    const checked = registerSchema.safeParse(body);
    if (!checked.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of checked.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
      setErrors(fieldErrors);
      return;
    }
    setBusy(true);
    const { data, error } = await api.write('auth.register', { body: body as RegisterBody });
    if (data) return signIn(data.result, false, '/verify');
    setBusy(false);
    // SPEC §8's toast says what happened; the form marks the field to change, or repeats what no field explains.
    const text = registerErrorText(error);
    toast(text);
    const fieldErrors = registerFieldErrors(error);
    setErrors(fieldErrors);
    setFormError(fieldErrors ? null : text);
  }

  const role = params.get('role') === 'seller' ? 'seller' : 'customer';
  return (
    <section className="page">
      <form className="form form--card" onSubmit={submit} noValidate>
        <h1 className="auth-page__title">Регистрация</h1>
        <fieldset className="segmented">
          <legend>Я хочу</legend>
          <label>
            <input type="radio" name="role" value="customer" defaultChecked={role === 'customer'} /> Заказывать
          </label>
          <label>
            <input type="radio" name="role" value="seller" defaultChecked={role === 'seller'} /> Продавать услуги
          </label>
        </fieldset>
        <div className="form__row">
          <TextField label="Имя" name="name" autoComplete="given-name" required errors={errors} />
          <TextField label="Фамилия" name="surname" autoComplete="family-name" required errors={errors} />
        </div>
        <TextField label="Логин" name="user_name" autoComplete="username" required errors={errors} hint="Латинские буквы, цифры и «_», от 3 до 32 символов" />
        <TextField label="Email" name="email" type="email" autoComplete="email" required errors={errors} />
        <TextField label="Пароль" name="password" type="password" autoComplete="new-password" required errors={errors} hint="Не короче 8 символов, буквы и цифры" />
        <TextField label="Повторите пароль" name="repeat_password" type="password" autoComplete="new-password" required errors={errors} />
        <div className={errors?.personal_data_consent ? 'field field--invalid' : 'field'}>
          <Checkbox
            name="personal_data_consent"
            aria-invalid={errors?.personal_data_consent ? true : undefined}
            aria-describedby={errors?.personal_data_consent ? 'personal-data-consent-error' : undefined}
            label={
              <>
                Даю <AppLink to="/consent" target="_blank">согласие на обработку персональных данных</AppLink> на условиях{' '}
                <AppLink to="/privacy" target="_blank">политики обработки персональных данных</AppLink>
              </>
            }
          />
          {errors?.personal_data_consent && (
            <p id="personal-data-consent-error" className="field__error" role="alert">
              {errors.personal_data_consent[0]}
            </p>
          )}
        </div>
        <BotCheck onToken={onToken} error={errors?.['cf-turnstile-response']?.[0]} />
        <FormError message={formError} />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          Зарегистрироваться
        </button>
        <p className="field__hint">
          Регистрируясь, вы принимаете <AppLink to="/conditions">условия использования</AppLink>.
        </p>
        <p className="auth-page__alt">
          Уже есть аккаунт? <AppLink to="/login">Войти</AppLink>
        </p>
      </form>
    </section>
  );
}
