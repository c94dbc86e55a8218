import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-services';
import type { ApiOk } from '#contract/api';
import type { Service } from '#contract/catalog';
import { api } from '../lib/api.ts';
import { pageMeta } from '../features/shell/meta.ts';
import { ModerationQueue, type QueueRow } from '../features/moderation/queue.tsx';
import { SERVICE_TABS, queueQuery } from '../features/moderation/tabs.ts';
import { servicePrice } from '../features/items/format.ts';

// /admin/services: the moderation queue (oldest first) and every other state, searchable.

const toRow = (s: Service): QueueRow => ({
  _id: s._id,
  title: s.title,
  category: s.category,
  category_title: s.category_title,
  status: s.status,
  reason: s.status === 'rejected' || s.status === 'hidden' ? s.reject_reason : null,
  owner: s.seller,
  money: servicePrice(s),
  created_at: s.created_at,
});

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const { tab, query } = queueQuery(new URL(request.url), SERVICE_TABS, 'moderation');
  try {
    const answer = (await api.get<Service[]>('/api/admin/services', { ...query, limit: 20 }, { fresh: true })) as ApiOk<
      Service[]
    > & { next?: string | null };
    return {
      tab,
      rows: answer.result.map(toRow),
      total: answer.total ?? answer.result.length,
      next: answer.next ?? null,
      failed: false,
    };
  } catch {
    return { tab, rows: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Услуги</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Услуги');

export default function AdminServicesPage() {
  const data = useLoaderData<typeof clientLoader>();
  return (
    <ModerationQueue
      kind="service"
      title="Услуги"
      tabs={SERVICE_TABS}
      moneyLabel="Цена"
      searchHint="Слова из названия или описания"
      {...data}
    />
  );
}
