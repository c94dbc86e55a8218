import type { AdminAuditEntry } from '#contract/admin';
import { AppLink } from '../../components/ui/app-link.tsx';

// /admin/audit: what administrators did, newest first (ADR 036).

/** The pages an audited object opens on, by its type. */
const OBJECT_LINKS: Record<string, (id: string) => string> = {
  user: (id) => `/admin/users/${id}`,
  service: (id) => `/admin/services/${id}/edit`,
  project: (id) => `/admin/projects/${id}/edit`,
  route_rule: () => '/admin/route-rules',
  settings: () => '/admin/settings',
  withdrawal: () => '/admin/payments?w=',
};

export const OBJECT_TYPE_LABELS: Record<string, string> = {
  user: 'Пользователь',
  service: 'Услуга',
  project: 'Проект',
  bid: 'Отклик',
  review: 'Отзыв',
  withdrawal: 'Вывод',
  route_rule: 'Правило адреса',
  settings: 'Настройки',
  search_query: 'Поисковая подсказка',
};

const when = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Moscow' });

export function AuditTable({ entries }: { entries: AdminAuditEntry[] }) {
  if (!entries.length) return <p className="empty-state">Записей нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Когда (МСК)</th>
          <th>Кто</th>
          <th>Действие</th>
          <th>Объект</th>
          <th>Подробности</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => {
          const open = OBJECT_LINKS[e.target_type];
          const object = `${OBJECT_TYPE_LABELS[e.target_type] ?? e.target_type}${e.target_type === 'settings' ? '' : ` ${e.target_id.slice(0, 8)}`}`;
          return (
            <tr key={e._id}>
              <td data-label="Когда">{when.format(new Date(e.created_at))}</td>
              <td data-label="Кто">{e.actor ? <AppLink to={`/admin/users/${e.actor}`}>{e.actor_name ?? e.actor.slice(0, 8)}</AppLink> : 'Система'}</td>
              <td data-label="Действие">
                <AppLink to={`?action=${encodeURIComponent(e.action)}`}>{e.action}</AppLink>
              </td>
              <td data-label="Объект">
                {open ? <AppLink to={open(e.target_id)}>{object}</AppLink> : object}{' '}
                <AppLink to={`?target_type=${encodeURIComponent(e.target_type)}&target_id=${encodeURIComponent(e.target_id)}`} className="muted" title="Все действия с этим объектом">
                  (история)
                </AppLink>
              </td>
              <td data-label="Подробности">
                {Object.keys(e.details).length ? <pre className="audit-details">{JSON.stringify(e.details, null, 1)}</pre> : '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
