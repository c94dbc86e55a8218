import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-disputes';
import type { AdminDisputeRow } from '#contract/disputes';
import { DISPUTE_STATUSES, type DisputeStatus } from '#contract/dispute-constants';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AdminDisputes } from '../features/disputes/index.ts';
import '../styles/items.css';
import '../styles/orders.css';
import '../styles/chat.css';
import '../styles/disputes.css';

// /admin/disputes (issue 14): the disputes queue; each opens with its order, chat and decision form.

export async function clientLoader({ url }: Route.ClientLoaderArgs): Promise<{ disputes: AdminDisputeRow[]; total: number; next: string | null; failed: boolean }> {
  const tab = url.searchParams.get('status') ?? 'open';
  const q = url.searchParams.get('q')?.trim();
  const cursor = url.searchParams.get('cursor');
  try {
    const answer = await api.read(
      'admin.disputes.list',
      {
        query: {
          ...((DISPUTE_STATUSES as readonly string[]).includes(tab) ? { status: tab as DisputeStatus } : {}),
          ...(tab === 'flagged' ? { flagged: 'true' as const } : {}),
          ...(q ? { q } : {}),
          ...(cursor ? { cursor } : {}),
          limit: 30,
        },
      },
      { fresh: true },
    );
    return { disputes: answer.result, total: answer.total ?? answer.result.length, next: answer.next, failed: false };
  } catch {
    return { disputes: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Споры</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Споры');

export default function AdminDisputesPage() {
  const data = useLoaderData<typeof clientLoader>();
  return <AdminDisputes {...data} />;
}
