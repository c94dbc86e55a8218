import { useState, type FormEvent } from 'react';
import { DELETION_STATUS_LABELS, type AdminConsent, type AdminDeletion, type PrivacyDocument, type PrivacyDocumentKind } from '#contract/privacy';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { formatDate } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { FormError, TextAreaField, TextField, formValues } from '../../components/ui/form.tsx';

/**
 * Moscow time, as the audit log shows it: one zone and one format on the server and in the browser (their time-zone
 * names differ between ICU builds, and the rendered page must hydrate as it is).
 */
const msk = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Moscow' });
const when = (iso: string) => `${msk.format(new Date(iso))} МСК`;

const KIND_LABELS: Record<PrivacyDocumentKind, string> = { policy: 'Политика (/privacy)', consent: 'Согласие (/consent)' };

/** A new version of one text: the form starts from the current one; saving publishes it (ADR 052). */
export function PublishDocumentForm({ current, onSaved }: { current: PrivacyDocument; onSaved: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { title = '', body = '' } = formValues(event.currentTarget);
    setBusy(true);
    const { error } = await api.write('admin.privacy.publish', { params: { kind: current.kind }, body: { title, body } });
    setBusy(false);
    setErrors(error?.errors);
    setFormError(error && !error.errors ? error.message : null);
    if (error) return;
    toast(`Опубликована редакция № ${current.version + 1}`);
    onSaved();
  }
  return (
    <form className="form form--card" onSubmit={submit} noValidate aria-label={KIND_LABELS[current.kind]}>
      <h2>
        {KIND_LABELS[current.kind]}: редакция № {current.version} от {formatDate(current.created_at)}
      </h2>
      <TextField label="Заголовок" name="title" defaultValue={current.title} required errors={errors} />
      <TextAreaField label="Текст" name="body" defaultValue={current.body} rows={14} required errors={errors} />
      <p className="field__hint">Абзацы — через пустую строку, «## » в начале строки — заголовок, «- » — пункт списка.</p>
      {current.kind === 'consent' && <p className="field__hint">Новая редакция согласия попросит каждого пользователя подтвердить согласие снова.</p>}
      <FormError message={formError} />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        Опубликовать новую редакцию
      </button>
    </form>
  );
}

export function ConsentsTable({ consents }: { consents: AdminConsent[] }) {
  if (!consents.length) return <p className="empty-state">Согласий пока нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Когда</th>
          <th>Кто</th>
          <th>Документ</th>
          <th>Адрес</th>
          <th>Браузер</th>
        </tr>
      </thead>
      <tbody>
        {consents.map((c) => (
          <tr key={c._id}>
            <td>{when(c.given_at)}</td>
            <td>
              <AppLink to={`/admin/users/${c.user._id}`}>{c.user.name}</AppLink>
            </td>
            <td>
              {c.kind === 'consent' ? 'Согласие' : 'Политика'}, ред. № {c.version}
            </td>
            <td>{c.ip ?? '—'}</td>
            <td className="table__muted">{c.user_agent ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DeletionsTable({ deletions }: { deletions: AdminDeletion[] }) {
  if (!deletions.length) return <p className="empty-state">Запросов на удаление нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Запрошено</th>
          <th>Кто</th>
          <th>Срок удаления</th>
          <th>Состояние</th>
        </tr>
      </thead>
      <tbody>
        {deletions.map((d) => (
          <tr key={d._id}>
            <td>{when(d.requested_at)}</td>
            <td>
              <AppLink to={`/admin/users/${d.user._id}`}>{d.user.name}</AppLink>
            </td>
            <td>{when(d.due_at)}</td>
            <td>
              {DELETION_STATUS_LABELS[d.status]}
              {d.done_at && `, ${when(d.done_at)}`}
              {d.cancelled_at && `, ${when(d.cancelled_at)}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
