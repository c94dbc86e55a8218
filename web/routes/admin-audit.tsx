import { useNavigation } from 'react-router';
import { GetForm } from '../components/ui/get-form.tsx';
import type { Route } from './+types/admin-audit';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { SelectField, TextField } from '../components/ui/form.tsx';
import { adminOption, AuditTable, auditFilters, auditNextLink, auditQuery, OBJECT_TYPE_LABELS } from '../features/admin/index.ts';
import '../styles/admin.css';

// /admin/audit: the audit log, newest first, filtered by who (?actor=), the action (?action=, exact or a prefix
// ending with a dot) and the object (?target_type=&target_id=), keyset pages (?cursor=).

export async function loader({ context, url }: Route.LoaderArgs) {
  const f = auditFilters(url.searchParams);
  const [entries, admins] = await Promise.all([
    context.read('admin.audit.list', { query: auditQuery(f, url.searchParams.get('cursor')) }),
    context.read('admin.users.list', { query: { role: 'admin', limit: 100 } }),
  ]);
  return {
    entries: entries.ok ? entries.body.result : [],
    next: entries.ok ? entries.body.next : null,
    failed: !entries.ok,
    admins: admins.ok ? admins.body.result.map(adminOption) : [],
    filters: f,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Журнал действий');

export default function AdminAuditPage({ loaderData }: Route.ComponentProps) {
  const { entries, next, failed, admins, filters } = loaderData;
  const navigation = useNavigation();
  const nextLink = auditNextLink(filters, next);
  const filtered = Object.values(filters).some(Boolean);
  return (
    <section className="page">
      <h1 className="page__title">Журнал действий</h1>
      <GetForm className="card audit-filters" role="search" aria-label="Фильтры журнала" style={{ padding: 16, marginBottom: 16 }}>
        <SelectField label="Кто" name="actor" defaultValue={filters.actor} options={admins} placeholder="Все администраторы" key={`a-${filters.actor}`} />
        <TextField label="Действие" name="action" defaultValue={filters.action} placeholder="settings.update или service." key={`c-${filters.action}`} maxLength={100} />
        <SelectField
          label="Тип объекта"
          name="target_type"
          defaultValue={filters.target_type}
          options={Object.entries(OBJECT_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
          placeholder="Любой"
          key={`t-${filters.target_type}`}
        />
        <TextField label="Идентификатор объекта" name="target_id" defaultValue={filters.target_id} key={`i-${filters.target_id}`} maxLength={100} />
        <div className="toolbar">
          <button type="submit" className="btn btn--primary" disabled={navigation.state !== 'idle'}>
            Показать
          </button>
          {filtered && (
            <AppLink to="/admin/audit" className="btn btn--ghost">
              Сбросить
            </AppLink>
          )}
        </div>
      </GetForm>
      {failed ? <p className="empty-state">Не удалось загрузить журнал. Проверьте фильтры.</p> : <AuditTable entries={entries} />}
      {nextLink && (
        <nav className="toolbar" aria-label="Страницы журнала">
          <AppLink to={nextLink} className="btn btn--ghost" rel="next">
            Следующая страница
          </AppLink>
        </nav>
      )}
    </section>
  );
}
