import { useState, type FormEvent } from 'react';
import { data as answer, useLoaderData, useRevalidator } from 'react-router';
import type { Route } from './+types/admin-user';
import { api, type Sent } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { formatDate, formatRelative } from '../lib/dates.ts';
import { pageMeta, pageNotFound } from '../features/shell/index.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { FormError, TextField, formValues } from '../components/ui/form.tsx';
import { ROLE_LABELS, roleList } from '../features/admin/index.ts';
import { ReviewItem } from '../features/reviews/index.ts';

const ACTIONS: Record<string, string> = {
  'user.block': 'Заблокирован',
  'user.unblock': 'Разблокирован',
  'user.grant_admin': 'Назначен администратором',
  'user.revoke_admin': 'Снята роль администратора',
};

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
  pageMeta(matches, data ? `${data.user.name} ${data.user.surname}`.trim() || data.user.user_name : 'Пользователь');

export default function AdminUserPage() {
  const { user, audit, reviews, reviewsTotal } = useLoaderData<typeof clientLoader>();
  const revalidator = useRevalidator();
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  const fullName = `${user.name} ${user.surname}`.trim() || user.user_name;

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
          <dd>{user.blocked ? `заблокирован: ${user.block_reason ?? 'без причины'}` : 'активен'}</dd>
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
            onClick={() =>
              send(
                api.write('admin.users.setAdmin', { params: { id: user._id }, body: { admin: !user.roles.includes('admin') } }),
                user.roles.includes('admin') ? 'Роль администратора снята' : 'Назначен администратором',
              )
            }
          >
            {user.roles.includes('admin') ? 'Снять роль администратора' : 'Сделать администратором'}
          </button>
        </div>
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
      <div className="card">
        <h2 className="card__title">Журнал действий</h2>
        {audit.length === 0 ? (
          <p className="field__hint">Действий администраторов ещё не было.</p>
        ) : (
          <ul className="audit">
            {audit.map((e) => (
              <li key={e._id}>
                <strong>{ACTIONS[e.action] ?? e.action}</strong>
                {typeof e.details.reason === 'string' && <> — {e.details.reason}</>} <span className="field__hint">{formatRelative(e.created_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
