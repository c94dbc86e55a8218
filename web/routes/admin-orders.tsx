import { useLoaderData } from 'react-router';
import type { Route } from './+types/admin-orders';
import type { Order } from '#contract/orders';
import { ORDER_STATUSES } from '#contract/money';
import { api } from '../lib/api.ts';
import { pageMeta } from '../lib/meta.ts';
import { AdminOrders } from '../features/orders/index.ts';
import '../styles/items.css';
import '../styles/orders.css';
import '../styles/order-items.css';

// /admin/orders: every order, by state and by number or title; each opens with its details and chat.

type Status = (typeof ORDER_STATUSES)[number];

export async function clientLoader({ url }: Route.ClientLoaderArgs): Promise<{ orders: Order[]; total: number; next: string | null; failed: boolean }> {
  const status = url.searchParams.get('status');
  const q = url.searchParams.get('q')?.trim();
  const cursor = url.searchParams.get('cursor');
  try {
    const answer = await api.read(
      'admin.orders.list',
      {
        query: {
          ...((ORDER_STATUSES as readonly string[]).includes(status ?? '') ? { status: status as Status } : {}),
          ...(q ? { q } : {}),
          ...(cursor ? { cursor } : {}),
          limit: 30,
        },
      },
      { fresh: true },
    );
    return { orders: answer.result, total: answer.total ?? answer.result.length, next: answer.next, failed: false };
  } catch {
    return { orders: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Заказы</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Заказы');

export default function AdminOrdersPage() {
  const data = useLoaderData<typeof clientLoader>();
  return <AdminOrders {...data} />;
}
