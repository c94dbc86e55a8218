import { useState, type FormEvent } from 'react';
import { useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/profile-settings';
import { CURRENCIES, type Currency } from '#contract/constants';
import { NOTIFICATION_KINDS, type ChangeEmailBody, type ChangePasswordBody } from '#contract/auth';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { renewToken } from '../lib/token.ts';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { currencyStore } from '../lib/currency-store.ts';
import { AvatarEditor, SessionsCard, useLookups } from '../features/settings/index.ts';
import { PersonalDataCard } from '../features/privacy/index.ts';
import { StepUpDialog, TwoFactorCard, withStepUp } from '../features/two-factor/index.ts';
import { PasskeysCard } from '../features/passkeys/index.ts';
import { Checkbox, FormError, SelectField, TextAreaField, TextField, formValues } from '../components/ui/form.tsx';
import '../styles/settings.css';

/**
 * The person's sessions (ADR 055), this device's marked, and passkeys (ADR 057): read on the server with the
 * request's own token.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [sessions, passkeys] = await Promise.all([context.read('auth.sessions', {}), context.read('auth.passkeys', {})]);
  return { sessions: sessions.ok ? sessions.body.result : [], passkeys: passkeys.ok ? passkeys.body.result : [] };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Настройки');

type Errors = Record<string, string[]> | undefined;

/** One settings form: submit, show field errors or a success toast, refresh the shell's user. */
function useSave() {
  const revalidator = useRevalidator();
  const [errors, setErrors] = useState<Errors>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function save<T>(request: () => Promise<{ data?: { result: T }; error?: { message: string; errors?: Errors } }>, success: string) {
    setBusy(true);
    const { data, error } = await request();
    setBusy(false);
    setErrors(error?.errors);
    setFormError(error ? error.message : null);
    if (data) {
      toast(success, { type: 'success' });
      await revalidator.revalidate();
    }
    return data?.result;
  }
  return { save, errors, formError, busy };
}

function ProfileForm() {
  const { user } = useShell();
  const lookups = useLookups();
  const { save, errors, formError, busy } = useSave();
  if (!user) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void save(
      () => api.write('users.update', { body: { name: v.name, surname: v.surname, about: v.about, city: v.city || null, country: v.country || null } }),
      'Профиль сохранён',
    );
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title" className="card__title">
        Профиль
      </h2>
      <AvatarEditor user={user} />
      <div className="form__row">
        <TextField label="Имя" name="name" defaultValue={user.name} errors={errors} />
        <TextField label="Фамилия" name="surname" defaultValue={user.surname} errors={errors} />
      </div>
      <TextAreaField label="О себе" name="about" defaultValue={user.about} errors={errors} maxLength={2000} />
      <div className="form__row">
        <SelectField
          key={`city-${lookups ? 'ready' : 'loading'}`}
          label="Город"
          name="city"
          defaultValue={user.city ?? ''}
          placeholder={lookups ? 'Не указан' : 'Загрузка…'}
          options={(lookups?.cities ?? []).map((c) => ({ value: c._id, label: c.title }))}
          errors={errors}
        />
        <SelectField
          key={`country-${lookups ? 'ready' : 'loading'}`}
          label="Страна"
          name="country"
          defaultValue={user.country ?? ''}
          placeholder={lookups ? 'Не указана' : 'Загрузка…'}
          options={(lookups?.countries ?? []).map((c) => ({ value: c._id, label: c.title }))}
          errors={errors}
        />
      </div>
      <FormError message={formError} />
      <div>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Сохранить
        </button>
      </div>
    </form>
  );
}

function PreferencesForm() {
  const { user } = useShell();
  const { save, formError, busy } = useSave();
  if (!user) return null;
  const notifications = user.preferences.emailNotifications ?? {};

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const currency = v.currency as Currency;
    const emailNotifications = Object.fromEntries(Object.keys(NOTIFICATION_KINDS).map((k) => [k, v[`notify-${k}`] === 'on']));
    void save(() => api.write('users.update', { body: { preferences: { currency, emailNotifications } } }), 'Настройки сохранены').then(
      (saved) => saved && currencyStore.set(currency),
    );
  }

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="prefs-title">
      <h2 id="prefs-title" className="card__title">
        Валюта и уведомления
      </h2>
      <SelectField label="Валюта цен" name="currency" defaultValue={user.preferences.currency ?? 'RUB'} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
      <fieldset className="form">
        <legend className="field__label">Присылать на email</legend>
        {Object.entries(NOTIFICATION_KINDS).map(([key, label]) => (
          <Checkbox key={key} name={`notify-${key}`} label={label} defaultChecked={notifications[key] ?? true} />
        ))}
      </fieldset>
      <FormError message={formError} />
      <div>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Сохранить
        </button>
      </div>
    </form>
  );
}

function PasswordForm() {
  const { save, errors, formError, busy } = useSave();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const v = formValues(form);
    void save(() => withStepUp(() => api.write('users.changePassword', { body: v as ChangePasswordBody })), 'Пароль изменён, другие сеансы завершены').then((token) => {
      if (!token) return;
      renewToken(token);
      form.reset();
    });
  }
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title" className="card__title">
        Пароль
      </h2>
      <TextField label="Текущий пароль" name="current_password" type="password" autoComplete="current-password" errors={errors} />
      <div className="form__row">
        <TextField label="Новый пароль" name="password" type="password" autoComplete="new-password" errors={errors} />
        <TextField label="Повторите пароль" name="repeat_password" type="password" autoComplete="new-password" errors={errors} />
      </div>
      <FormError message={formError} />
      <div>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Изменить пароль
        </button>
      </div>
    </form>
  );
}

function EmailForm() {
  const { user } = useShell();
  const { save, errors, formError, busy } = useSave();
  const [sentTo, setSentTo] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void save(() => withStepUp(() => api.write('users.changeEmail', { body: v as ChangeEmailBody })), 'Письмо для подтверждения отправлено').then((ok) => ok && setSentTo(v.email ?? null));
  }
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="email-title">
      <h2 id="email-title" className="card__title">
        Email
      </h2>
      <p className="field__hint">
        Сейчас: <strong>{user?.email}</strong> {user?.email_confirmed ? '(подтверждён)' : '(не подтверждён)'}
      </p>
      {sentTo && <p className="form-success">Перейдите по ссылке из письма, отправленного на {sentTo}, чтобы сменить адрес.</p>}
      <div className="form__row">
        <TextField label="Новый email" name="email" type="email" autoComplete="email" errors={errors} />
        <TextField label="Пароль" name="password" type="password" autoComplete="current-password" errors={errors} />
      </div>
      <FormError message={formError} />
      <div>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Сменить email
        </button>
      </div>
    </form>
  );
}

export default function SettingsPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <section className="page">
      <h1 className="page__title">Настройки</h1>
      {params.get('reason') === 'two-factor' && (
        <p className="notice" role="status">
          Раздел администрирования открывается только с двухфакторной защитой. Включите её ниже — понадобится
          приложение-аутентификатор на телефоне.
        </p>
      )}
      <ProfileForm />
      <PreferencesForm />
      <EmailForm />
      <PasswordForm />
      <TwoFactorCard />
      <PasskeysCard passkeys={loaderData.passkeys} withStepUp={withStepUp} />
      <SessionsCard sessions={loaderData.sessions} />
      <PersonalDataCard />
      <StepUpDialog />
    </section>
  );
}
