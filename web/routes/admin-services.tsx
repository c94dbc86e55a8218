import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-services';
import type { Service } from '#contract/catalog';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { loadQueue, ModerationQueue, type QueueRow, SERVICE_TABS } from '../features/moderation/index.ts';
import { servicePrice } from '../features/items/index.ts';

// /admin/services: the moderation queue (oldest first) and every other state, searchable.

const toRow = (s: Service): QueueRow => ({
  _id: s._id,
  title: s.title,
  category: s.category,
  category_title: s.category_title,
  status: s.status,
  pending_edit: s.pending_edit,
  reason: s.status === 'rejected' || s.status === 'hidden' ? s.reject_reason : null,
  owner: s.seller,
  money: servicePrice(s),
  created_at: s.created_at,
});

export function clientLoader({ url }: Route.ClientLoaderArgs) {
  return loadQueue(url, { endpoint: 'admin.services.list', tabs: SERVICE_TABS, fallback: 'moderation', toRow });
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
    <>
      <ModerationQueue
        kind="service"
        title="Услуги"
        tabs={SERVICE_TABS}
        moneyLabel="Цена"
        searchHint="Слова из названия или описания"
        {...data}
      />
      <p className="field__hint">
        Подсказки поиска в шапке сайта: <AppLink to="/admin/search-suggestions">просмотреть и удалить</AppLink>
      </p>
    </>
  );
}
