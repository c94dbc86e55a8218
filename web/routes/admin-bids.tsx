import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-bids';
import { pageMeta } from '../lib/meta.ts';
import { AdminBids, loadAdminBids } from '../features/bids/index.ts';
import '../styles/bids.css';

// /admin/bids: every bid with filters by state, project and seller.

export function clientLoader({ url }: Route.ClientLoaderArgs) {
  return loadAdminBids(url);
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Отклики</h1>
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Отклики');

export default function AdminBidsPage() {
  return <AdminBids {...useLoaderData<typeof clientLoader>()} />;
}
