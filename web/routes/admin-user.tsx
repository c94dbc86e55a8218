import { useState, type FormEvent } from 'react';
import { data as answer, useLoaderData, useRevalidator } from 'react-router';
import type { Route } from './+types/admin-user';
import { api, type Sent } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { formatDate, formatRelative } from '../lib/dates.ts';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { FormError, TextField, formValues } from '../components/ui/form.tsx';
import { accessText, adminToggle, ROLE_LABELS, roleList } from '../features/admin/index.ts';
import { displayName } from '../lib/people.ts';
import { ReviewItem } from '../features/reviews/index.ts';
import { auditActionLabel } from '#contract/audit-constants';
import type { AuditEntry } from '#contract/admin';

// The document request checks the person exists (HTTP 404 otherwise, ADR 038); the page's data is the browser's.
export async function loader({ params, context }: Route.LoaderArgs) {
  const res = await context.read('admin.users.get', { params: { id: params.id } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return null;
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  try {
    const [person, reviews] = await Promise.all([
      api.read('admin.users.get', { params: { id: params.id } }, { fresh: true }),
      // The published reviews about the person: an admin removes one that breaks the rules (ADR 029).
      api.read('reviews.ofUser', { params: { id: params.id }, query: { limit: 50 } }, { fresh: true }),
    ]);
    return { ...person.result, reviews: reviews.result, reviewsTotal: reviews.total ?? reviews.result.length };
  } catch {
    throw pageNotFound();
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <div className="skeleton" style={{ height: 320 }} />;
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, data ? displayName(data.user) : 'Пользователь');

export default function AdminUserPage() {
  const { user, audit, reviews, reviewsTotal } = useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  const fullName = displayName(user);
  const toggle = adminToggle(user.roles);

  async function send(change: Promise<Sent<unknown>>, success: string) {
    const { error } = await change;
    setErrors(error?.errors);
    setFormError(error?.message ?? null);
    if (error) return;
    toast(success, { type: 'success' });
    await revalidator.revalidate();
  }

  function block(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { reason } = formValues(event.currentTarget);
    void send(api.write('admin.users.block', { params: { id: user._id }, body: { blocked: true, reason } }), 'Пользователь заблокирован');
  }

  return (
    <section className="page">
      <Breadcrumbs items={[{ label: 'Пользователи', to: '/admin/users' }, { label: fullName }]} />
      <div className="card">
        <div className="avatar-editor">
          <Avatar name={fullName} src={user.avatar} size={64} />
          <div>
            <h1 className="page__title">{fullName}</h1>
            <p className="field__hint">
              @{user.user_name} · {user.email} · с {formatDate(user.created_at)}
            </p>
          </div>
        </div>
        <dl className="facts">
          <dt>Роли</dt>
          <dd>{roleList(user.roles)}</dd>
          <dt>Активная роль</dt>
          <dd>{ROLE_LABELS[user.active_role] ?? user.active_role}</dd>
          <dt>Email</dt>
          <dd>{user.email_confirmed ? 'подтверждён' : 'не подтверждён'}</dd>
          <dt>Состояние</dt>
          <dd>{accessText(user)}</dd>
          <dt>Двухфакторная защита</dt>
          <dd>{user.two_factor ? 'включена' : 'не включена'}</dd>
        </dl>
      </div>
      <div className="card form">
        <h2 className="card__title">Доступ</h2>
        {user.blocked ? (
          <div>
            <button type="button" className="btn btn--primary" onClick={() => send(api.write('admin.users.block', { params: { id: user._id }, body: { blocked: false } }), 'Пользователь разблокирован')}>
              Разблокировать
            </button>
          </div>
        ) : (
          <form className="form" onSubmit={block} noValidate>
            <TextField label="Причина блокировки" name="reason" errors={errors} hint="Сохранится в журнале действий" />
            <div>
              <button type="submit" className="btn btn--primary">
                Заблокировать
              </button>
            </div>
          </form>
        )}
        <FormError message={formError} />
        <div>
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => send(api.write('admin.users.setAdmin', { params: { id: user._id }, body: { admin: toggle.admin } }), toggle.done)}
          >
            {toggle.label}
          </button>
        </div>
        {user.two_factor && <ResetTwoFactor onReset={() => send(api.write('admin.users.resetTwoFactor', { params: { id: user._id } }), 'Двухфакторная защита сброшена')} />}
      </div>
      <div className="card">
        <h2 className="card__title">Отзывы о пользователе{reviewsTotal > 0 && ` (${reviewsTotal})`}</h2>
        {reviews.length === 0 ? (
          <p className="field__hint">Опубликованных отзывов нет.</p>
        ) : (
          <ul className="reviews__list">
            {reviews.map((r) => (
              <li key={r._id}>
                <ReviewItem review={r}>
                  <button
                    type="button"
                    className="btn btn--ghost"
                    style={{ marginTop: 12 }}
                    onClick={() => {
                      if (window.confirm('Удалить отзыв? Он исчезнет со всех страниц, рейтинг пересчитается.')) {
                        void send(api.write('admin.reviews.remove', { params: { id: r._id } }), 'Отзыв удалён');
                      }
                    }}
                  >
                    Удалить отзыв
                  </button>
                </ReviewItem>
              </li>
            ))}
          </ul>
        )}
      </div>
      <UserAudit audit={audit} />
    </section>
  );
}

/** The person lost their phone and their recovery codes (ADR 054): the factor goes, they get a letter. */
function ResetTwoFactor({ onReset }: { onReset: () => void }) {
  return (
    <div>
      <p className="field__hint">
        Если человек потерял телефон и коды восстановления: защита выключится, все его сеансы завершатся, ему придёт
        письмо. Убедитесь, что просит владелец аккаунта.
      </p>
      <button
        type="button"
        className="btn btn--ghost"
        onClick={() => {
          if (window.confirm('Сбросить двухфакторную защиту? Вход снова будет возможен только по паролю.')) onReset();
        }}
      >
        Сбросить двухфакторную защиту
      </button>
    </div>
  );
}

/** What administrators did to the person, newest first, with the reasons they gave. */
function UserAudit({ audit }: { audit: AuditEntry[] }) {
  return (
    <div className="card">
      <h2 className="card__title">Журнал действий</h2>
      {audit.length === 0 ? (
        <p className="field__hint">Действий администраторов ещё не было.</p>
      ) : (
        <ul className="audit">
          {audit.map((e) => (
            <li key={e._id}>
              <strong>{auditActionLabel(e.action)}</strong>
              {typeof e.details.reason === 'string' && <> — {e.details.reason}</>} <span className="field__hint">{formatRelative(e.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
