import { useLoaderData, useNavigation, useSearchParams } from 'react-router';
import { GetForm } from '../components/ui/get-form.tsx';
import type { Route } from './+types/admin-users';
import type { AdminUser } from '#contract/admin';
import type { ApiOk } from '#contract/api';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { SelectField, TextField } from '../components/ui/form.tsx';
import { pageLink, pagesOf, ROLE_LABELS, roleList, USER_STATE_OPTIONS, USERS_PAGE_SIZE, userState, usersQuery } from '../features/admin/index.ts';
import { DateCell } from '../components/ui/date-cell.tsx';

export async function clientLoader({ url }: Route.ClientLoaderArgs) {
  const { query, page } = usersQuery(url.searchParams);
  const answer = await api.read('admin.users.list', { query: { ...query, limit: USERS_PAGE_SIZE } }, { fresh: true }).catch(
    (): ApiOk<AdminUser[]> => ({ status: 0, result: [], total: 0 }),
  );
  return { users: answer.result, total: answer.total ?? 0, page };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page">
      <h1 className="page__title">Пользователи</h1>
      <div className="skeleton" style={{ height: 240 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Пользователи');

function UserState({ user }: { user: AdminUser }) {
  const { label, className } = userState(user);
  return <span className={className}>{label}</span>;
}

export default function AdminUsersPage() {
  const { users, total, page } = useLoaderData<typeof clientLoader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const pages = pagesOf(total);

  return (
    <section className="page">
      <h1 className="page__title">Пользователи</h1>
      <GetForm className="toolbar" role="search">
        <TextField label="Поиск" name="q" defaultValue={params.get('q') ?? ''} placeholder="Имя, email или логин" />
        <SelectField
          label="Роль"
          name="role"
          defaultValue={params.get('role') ?? ''}
          placeholder="Все"
          options={Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <SelectField
          label="Состояние"
          name="state"
          defaultValue={params.get('state') ?? ''}
          placeholder="Все"
          options={USER_STATE_OPTIONS}
        />
        <button type="submit" className="btn btn--primary" disabled={navigation.state !== 'idle'}>
          Найти
        </button>
      </GetForm>
      <p className="field__hint" aria-live="polite">
        Найдено: {total}
      </p>
      {users.length === 0 ? (
        <p className="empty-state">Никого не нашлось. Измените запрос или фильтры.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Пользователь</th>
              <th>Email</th>
              <th>Роли</th>
              <th>Состояние</th>
              <th>Регистрация</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u._id}>
                <td data-label="Пользователь">
                  <AppLink to={`/admin/users/${u._id}`} className="user-cell">
                    <Avatar name={`${u.name} ${u.surname}`.trim() || u.user_name} src={u.avatar} size={32} />
                    <span>
                      {u.name} {u.surname} <span className="field__hint">@{u.user_name}</span>
                    </span>
                  </AppLink>
                </td>
                <td data-label="Email">{u.email}</td>
                <td data-label="Роли">{roleList(u.roles)}</td>
                <td data-label="Состояние">
                  <UserState user={u} />
                </td>
                <DateCell label="Регистрация" date={u.created_at} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="Страницы">
          {page > 1 && (
            <AppLink to={pageLink(params, page - 1)} className="btn btn--ghost">
              Назад
            </AppLink>
          )}
          <span>
            {page} из {pages}
          </span>
          {page < pages && (
            <AppLink to={pageLink(params, page + 1)} className="btn btn--ghost">
              Дальше
            </AppLink>
          )}
        </nav>
      )}
    </section>
  );
}
