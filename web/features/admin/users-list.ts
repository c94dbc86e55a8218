import type { AdminUser } from '#contract/admin';

// /admin/users: the list's query from its address, a person's state in a word, the pager's links.

export const USERS_PAGE_SIZE = 20;

export const USER_STATE_OPTIONS: { value: string; label: string }[] = [
  { value: 'active', label: 'Активные' },
  { value: 'blocked', label: 'Заблокированные' },
  { value: 'unconfirmed', label: 'Без подтверждения' },
];

/** The address's filters as the API query (empty fields left out), and the page asked for (1 by default). */
export function usersQuery(params: URLSearchParams): { query: Record<string, string>; page: number } {
  const query = Object.fromEntries([...params].filter(([, v]) => v !== ''));
  return { query, page: Number(query.page ?? 1) };
}

/** A person's state: blocked first, then an unconfirmed email, else active; with the badge's class. */
export function userState(user: Pick<AdminUser, 'blocked' | 'email_confirmed'>): { label: string; className: string } {
  if (user.blocked) return { label: 'Заблокирован', className: 'badge badge--danger' };
  if (!user.email_confirmed) return { label: 'Email не подтверждён', className: 'badge badge--muted' };
  return { label: 'Активен', className: 'badge' };
}

/** How many pages `total` people fill (at least one). */
export const pagesOf = (total: number) => Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

/** The same address on page `p`. */
export function pageLink(params: URLSearchParams, p: number): string {
  const next = new URLSearchParams(params);
  next.set('page', String(p));
  return `?${next}`;
}

/** The admin role's switch on a person's page: what it sets, its words, and what is said once done. */
export function adminToggle(roles: readonly string[]): { admin: boolean; label: string; done: string } {
  return roles.includes('admin')
    ? { admin: false, label: 'Снять роль администратора', done: 'Роль администратора снята' }
    : { admin: true, label: 'Сделать администратором', done: 'Назначен администратором' };
}

/** A person's state on their page: active, or blocked with the reason on record. */
export const accessText = (user: Pick<AdminUser, 'blocked' | 'block_reason'>) =>
  user.blocked ? `заблокирован: ${user.block_reason ?? 'без причины'}` : 'активен';
