// The state tabs of the moderation queues. `all` is a tab of its own: the services queue opens on moderation.

export const ALL = 'all';

export interface QueueTab {
  value: string;
  label: string;
  /** What an empty tab says. */
  empty: string;
}

export const SERVICE_TABS: readonly QueueTab[] = [
  { value: 'moderation', label: 'На модерации', empty: 'Очередь пуста: все услуги проверены.' },
  { value: 'active', label: 'Активные', empty: 'Активных услуг нет.' },
  { value: 'rejected', label: 'Отклонённые', empty: 'Отклонённых услуг нет.' },
  { value: 'hidden', label: 'Скрытые', empty: 'Скрытых услуг нет.' },
  { value: ALL, label: 'Все', empty: 'Услуг пока нет.' },
];

export const PROJECT_TABS: readonly QueueTab[] = [
  { value: 'active', label: 'Активные', empty: 'Активных проектов нет.' },
  { value: 'in_progress', label: 'В работе', empty: 'Проектов в работе нет.' },
  { value: 'closed', label: 'Закрытые', empty: 'Закрытых проектов нет.' },
  { value: 'archived', label: 'В архиве', empty: 'Архив пуст.' },
  { value: 'hidden', label: 'Скрытые', empty: 'Скрытых проектов нет.' },
  { value: ALL, label: 'Все', empty: 'Проектов пока нет.' },
];

/**
 * The tab and the API query of a queue URL: ?status= picks the tab (unknown values fall back to the default),
 * `all` sends no status at all; q and cursor pass through when set.
 */
export function queueQuery(
  url: URL,
  tabs: readonly QueueTab[],
  fallback: string,
): { tab: string; query: Record<string, string> } {
  const asked = url.searchParams.get('status');
  const tab = tabs.some((t) => t.value === asked) ? asked! : fallback;
  const query: Record<string, string> = {};
  if (tab !== ALL) query.status = tab;
  const q = url.searchParams.get('q')?.trim();
  if (q) query.q = q;
  const cursor = url.searchParams.get('cursor');
  if (cursor) query.cursor = cursor;
  return { tab, query };
}
