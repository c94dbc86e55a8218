import { useState, type FormEvent } from 'react';
import { useRevalidator, useRouteLoaderData } from 'react-router';
import type { PrivacyStatus } from '#contract/privacy';
import { apiBaseUrl, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { formatDate } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { FormError, TextField, formValues } from '../../components/ui/form.tsx';

/** A pending deletion: its deadline and the way back. */
function PendingDeletion({ due, onChanged }: { due: string; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  async function cancel() {
    setBusy(true);
    const { error } = await api.write('privacy.cancelDeletion');
    setBusy(false);
    if (error) return toast(error.message);
    toast('Удаление аккаунта отменено');
    onChanged();
  }
  return (
    <div className="form-error" role="status">
      <p>Аккаунт будет удалён {formatDate(due)}. До этого срока удаление можно отменить.</p>
      <button type="button" className="btn btn--ghost" onClick={cancel} disabled={busy}>
        Отменить удаление
      </button>
    </div>
  );
}

/** The request: the password confirms it; the server says why it cannot be done yet, if so. */
function DeletionForm({ days, onChanged }: { days: number; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { password = '' } = formValues(event.currentTarget);
    setBusy(true);
    const { error } = await api.write('privacy.requestDeletion', { body: { password } });
    setBusy(false);
    setErrors(error?.errors);
    setFormError(error && !error.errors ? error.message : null);
    if (error) return;
    toast('Запрос на удаление принят');
    onChanged();
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Удаление аккаунта">
      <p className="field__hint">
        Через {days} дн. после запроса имя, email, фото, контакты и тексты ваших сообщений будут удалены, услуги и проекты
        скрыты, войти будет нельзя. Суммы заказов и платежей останутся без ваших данных. Пока идут заказы, споры или на
        балансе есть деньги, удалить аккаунт нельзя.
      </p>
      <TextField label="Пароль для подтверждения" name="password" type="password" autoComplete="current-password" required errors={errors} />
      <FormError message={formError} />
      <button type="submit" className="btn btn--ghost" disabled={busy}>
        Удалить аккаунт
      </button>
    </form>
  );
}

/** /profile/settings: the person's personal data (ADR 052): the export as a JSON file and the account's deletion. */
export function PersonalDataCard() {
  const status = (useRouteLoaderData('root') as { privacy?: PrivacyStatus | null } | undefined)?.privacy ?? null;
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  return (
    <section className="card" aria-labelledby="personal-data-title">
      <h2 id="personal-data-title" className="card__title">
        Персональные данные
      </h2>
      <p className="field__hint">
        Файл JSON со всеми вашими данными: профиль, согласия, услуги, проекты, заказы, ваши сообщения и отзывы, платежи,
        сеансы и уведомления. Как мы их обрабатываем — в <AppLink to="/privacy">политике обработки персональных данных</AppLink>.
      </p>
      <a className="btn btn--ghost" href={`${apiBaseUrl()}/api/privacy/export`} download>
        Скачать мои данные
      </a>
      <h3>Удаление аккаунта</h3>
      {status?.deletion ? <PendingDeletion due={status.deletion.due_at} onChanged={refresh} /> : <DeletionForm days={status?.cooling_off_days ?? 14} onChanged={refresh} />}
    </section>
  );
}
