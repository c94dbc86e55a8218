import type { ApiOk } from '#contract/api';
import { api } from '../../lib/api.ts';
import type { QueueRow } from './queue.tsx';
import { queueQuery, type QueueTab } from './tabs.ts';

const PAGE_SIZE = 20;

/** One page of an admin moderation queue (services or projects) for the tab in the address. */
export async function loadQueue<T>(
  url: URL,
  opts: { path: string; tabs: readonly QueueTab[]; fallback: string; toRow: (item: T) => QueueRow },
) {
  const { tab, query } = queueQuery(url, opts.tabs, opts.fallback);
  try {
    const answer = (await api.get<T[]>(opts.path, { ...query, limit: PAGE_SIZE }, { fresh: true })) as ApiOk<T[]> & {
      next?: string | null;
    };
    return {
      tab,
      rows: answer.result.map(opts.toRow),
      total: answer.total ?? answer.result.length,
      next: answer.next ?? null,
      failed: false,
    };
  } catch {
    return { tab, rows: [] as QueueRow[], total: 0, next: null, failed: true };
  }
}
