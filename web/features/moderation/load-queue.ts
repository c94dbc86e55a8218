import type { EndpointAnswer, EndpointInput } from '#contract/endpoint';
import type { Endpoints } from '#contract/endpoints';
import { api } from '../../lib/api.ts';
import type { QueueRow } from './queue.tsx';
import { queueQuery, type QueueTab } from './tabs.ts';

const PAGE_SIZE = 20;

/** The admin area's moderation queues. */
export type QueueEndpoint = 'admin.services.list' | 'admin.projects.list';
export type QueueItem<N extends QueueEndpoint> = EndpointAnswer<Endpoints[N]>['result'][number];

/** One page of an admin moderation queue (services or projects) for the tab in the address. */
export async function loadQueue<N extends QueueEndpoint>(
  url: URL,
  opts: { endpoint: N; tabs: readonly QueueTab[]; fallback: string; toRow: (item: QueueItem<N>) => QueueRow },
) {
  const { tab, query } = queueQuery(url, opts.tabs, opts.fallback);
  // The status is one of the queue's tabs (queueQuery keeps no other); the endpoint's schema checks it again.
  const input = { query: { ...query, limit: PAGE_SIZE } } as EndpointInput<Endpoints[QueueEndpoint]>;
  try {
    const answer = await api.read(opts.endpoint as QueueEndpoint, input, { fresh: true });
    const items = answer.result as QueueItem<N>[];
    return {
      tab,
      rows: items.map(opts.toRow),
      total: answer.total ?? items.length,
      next: answer.next,
      failed: false,
    };
  } catch {
    return { tab, rows: [] as QueueRow[], total: 0, next: null, failed: true };
  }
}
