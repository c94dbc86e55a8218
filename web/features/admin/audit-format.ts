import type { AdminAuditEntry } from '#contract/admin';
import { AUDIT_MONEY_DETAILS } from '#contract/audit-constants';
import { formatRubles } from '#contract/money-format';
import { METHOD_LABELS } from '../payments/index.ts';

// The audit log in words and rubles (ADR 046): how an entry's object, actor and details read, and the filters of
// /admin/audit read from its address.

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
  appeal: 'Обращение',
  dispute: 'Спор',
  blog_post: 'Статья',
};

type Target = Pick<AdminAuditEntry, 'target_type' | 'target_id'>;

/** Where an entry's object opens, or null for a type without a page. */
export const auditObjectLink = (e: Target): string | null => OBJECT_LINKS[e.target_type]?.(e.target_id) ?? null;

/** «Услуга 1a2b3c4d»: the type in words and the id's first eight characters (the settings are one object). */
export const auditObjectText = (e: Target) =>
  `${OBJECT_TYPE_LABELS[e.target_type] ?? e.target_type}${e.target_type === 'settings' ? '' : ` ${e.target_id.slice(0, 8)}`}`;

/** The log filtered to one object's history. */
export const auditHistoryLink = (e: Target) =>
  `?target_type=${encodeURIComponent(e.target_type)}&target_id=${encodeURIComponent(e.target_id)}`;

/** The log filtered to one action. */
export const auditActionLink = (action: string) => `?action=${encodeURIComponent(action)}`;

/** Who did it: the admin's name (or id's start) with their page, else the system. */
export function auditActor(e: Pick<AdminAuditEntry, 'actor' | 'actor_name'>): { text: string; link: string | null } {
  if (!e.actor) return { text: 'Система', link: null };
  return { text: e.actor_name ?? e.actor.slice(0, 8), link: `/admin/users/${e.actor}` };
}

/** A detail's value as the admin reads it: kopecks in rubles, lists joined, anything else as recorded. */
export function auditDetailValue(key: string, value: unknown): string {
  if (AUDIT_MONEY_DETAILS.has(key) && typeof value === 'number') return formatRubles(value);
  if (key === 'method' && typeof value === 'string') return METHOD_LABELS[value] ?? value;
  if (Array.isArray(value)) return value.join(', ');
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const when = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Moscow' });

/** When, in Moscow time (the column says МСК). */
export const auditWhen = (iso: string) => when.format(new Date(iso));

export const AUDIT_FILTERS = ['actor', 'action', 'target_type', 'target_id'] as const;
export type AuditFilters = Record<(typeof AUDIT_FILTERS)[number], string>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters of the log's address, trimmed ('' when absent). */
export const auditFilters = (params: URLSearchParams): AuditFilters =>
  Object.fromEntries(AUDIT_FILTERS.map((k) => [k, params.get(k)?.trim() ?? ''])) as AuditFilters;

/** The list's query: the filters that are set (an actor only when it is an id, as the API takes), one page of 50. */
export function auditQuery(f: AuditFilters, cursor: string | null) {
  return {
    limit: 50,
    ...(f.actor && UUID_RE.test(f.actor) ? { actor: f.actor } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.target_type ? { target_type: f.target_type } : {}),
    ...(f.target_id ? { target_id: f.target_id } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** The next page's address: the same filters and the cursor. */
export function auditNextLink(f: AuditFilters, next: string | null): string | null {
  if (!next) return null;
  const query = new URLSearchParams(Object.entries(f).filter(([, v]) => v));
  return `?${new URLSearchParams([...query, ['cursor', next]]).toString()}`;
}

/** An admin as the "who" filter offers them: the name, else the email. */
export const adminOption = (u: { _id: string; name: string; surname: string; email: string }) => ({
  value: u._id,
  label: `${u.name} ${u.surname}`.trim() || u.email,
});
