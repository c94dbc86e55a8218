import type { AdminAuditEntry } from '#contract/admin';
import { AUDIT_DETAIL_LABELS, auditActionLabel } from '#contract/audit-constants';
import { AppLink } from '../../components/ui/app-link.tsx';
import { auditActionLink, auditActor, auditDetailValue, auditHistoryLink, auditObjectLink, auditObjectText, auditWhen } from './audit-format.ts';

// /admin/audit: what administrators did, newest first (ADR 036), in words and rubles (ADR 046, audit-format.ts).

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
          const open = auditObjectLink(e);
          const object = auditObjectText(e);
          const actor = auditActor(e);
          return (
            <tr key={e._id}>
              <td data-label="Когда">{auditWhen(e.created_at)}</td>
              <td data-label="Кто">{actor.link ? <AppLink to={actor.link}>{actor.text}</AppLink> : actor.text}</td>
              <td data-label="Действие">
                <AppLink to={auditActionLink(e.action)} title={e.action}>
                  {auditActionLabel(e.action)}
                </AppLink>
              </td>
              <td data-label="Объект">
                {open ? <AppLink to={open}>{object}</AppLink> : object}{' '}
                <AppLink to={auditHistoryLink(e)} className="muted" title="Все действия с этим объектом">
                  (история)
                </AppLink>
              </td>
              <td data-label="Подробности">
                {Object.keys(e.details).length ? (
                  <dl className="audit-details">
                    {Object.entries(e.details).map(([key, value]) => (
                      <div key={key}>
                        <dt>{AUDIT_DETAIL_LABELS[key] ?? key}</dt>
                        <dd>{auditDetailValue(key, value)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
