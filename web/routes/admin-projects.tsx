import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-projects';
import type { AdminProject } from '#contract/moderation';
import { pageMeta } from '../lib/meta.ts';
import { loadQueue, ModerationQueue, PROJECT_TABS, type QueueRow } from '../features/moderation/index.ts';
import { projectBudget } from '../features/items/index.ts';

// /admin/projects: projects are published at once and moderated afterwards, newest first.

const toRow = (p: AdminProject): QueueRow => ({
  _id: p._id,
  title: p.title,
  category: p.category,
  category_title: p.category_title,
  status: p.status,
  reason: p.status === 'hidden' ? p.hidden_reason : null,
  owner: p.customer,
  ownerNote: p.customer_email,
  money: projectBudget(p.budget),
  created_at: p.created_at,
});

export function clientLoader({ url }: Route.ClientLoaderArgs) {
  return loadQueue(url, { endpoint: 'admin.projects.list', tabs: PROJECT_TABS, fallback: 'active', toRow });
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Проекты</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Проекты');

export default function AdminProjectsPage() {
  const data = useLoaderData<typeof clientLoader>();
  return (
    <ModerationQueue
      kind="project"
      title="Проекты"
      tabs={PROJECT_TABS}
      moneyLabel="Бюджет"
      searchHint="Название, слова, email или логин заказчика"
      {...data}
    />
  );
}
