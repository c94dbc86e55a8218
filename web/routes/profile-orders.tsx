import { useEffect, useState } from 'react';
import { useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/profile-orders';
import type { Order } from '#contract/orders';
import { api } from '../lib/api.ts';
import { activeRole } from '../lib/current-user.ts';
import { onSocketEvent } from '../lib/socket.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { ORDER_TABS, OrdersList, type OrdersRole, type OrderTab } from '../features/orders/index.ts';
// The order pages' stylesheet (ADR 024).
import '../styles/items.css';
import '../styles/orders.css';
import '../styles/order-items.css';
import { ShowMore } from '../components/ui/show-more.tsx';

// /profile/orders: the person's orders by state, as the customer (buying) or the seller (selling). The side follows
// the active role unless ?role= says otherwise; the tabs are ?status=.

interface Page {
  role: OrdersRole;
  tab: OrderTab;
  orders: Order[];
  total: number;
  next: string | null;
  failed: boolean;
}

const isTab = (v: string | null): v is OrderTab => ORDER_TABS.some((t) => t.value === v);

async function load(role: OrdersRole, tab: OrderTab, cursor?: string) {
  return api.read('orders.list', { query: { role, ...(tab === 'all' ? {} : { status: tab }), ...(cursor ? { cursor } : {}), limit: 20 } }, { fresh: true });
}

export async function clientLoader({ url }: Route.ClientLoaderArgs): Promise<Page> {
  const status = url.searchParams.get('status');
  const tab: OrderTab = isTab(status) ? status : 'all';
  let role: OrdersRole = url.searchParams.get('role') === 'selling' ? 'selling' : 'buying';
  try {
    if (!url.searchParams.get('role')) role = (await activeRole()) === 'seller' ? 'selling' : 'buying';
    const answer = await load(role, tab);
    return { role, tab, orders: answer.result, total: answer.total ?? answer.result.length, next: answer.next, failed: false };
  } catch {
    return { role, tab, orders: [], total: 0, next: null, failed: true };
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Заказы</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      {[0, 1, 2].map((i) => (
        <div key={i} className="skeleton" style={{ height: 96, marginBottom: 12 }} />
      ))}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Заказы'), { name: 'robots', content: 'noindex' }];

export default function ProfileOrdersPage() {
  const data = useLoaderData<typeof clientLoader>();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  // Further pages of this list (dropped when the loader reads the list again).
  const [extra, setMore] = useState<{ of: Page; orders: Order[]; next: string | null } | null>(null);
  const more = extra?.of === data ? extra : null;
  const [loadingMore, setLoadingMore] = useState(false);
  // An order of this person changed (paid, delivered, …): the list is read again.
  useEffect(() => onSocketEvent('order_updated', () => void revalidator.revalidate()), [revalidator]);

  const link = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    if (!next.get('role')) next.set('role', data.role);
    for (const [k, v] of Object.entries(change)) {
      if (v === null || v === 'all') next.delete(k);
      else next.set(k, v);
    }
    return `?${next.toString()}`;
  };
  const orders = [...data.orders, ...(more?.orders ?? [])];
  const next = more ? more.next : data.next;

  async function loadMore() {
    if (!next) return;
    setLoadingMore(true);
    try {
      const answer = await load(data.role, data.tab, next);
      setMore({ of: data, orders: [...(more?.orders ?? []), ...answer.result], next: answer.next });
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <section className="page orders-page">
      <div className="page__head orders-page__head">
        <h1 className="page__title">Заказы</h1>
        <div className="orders-role" role="group" aria-label="Чьи заказы">
          <AppLink to={link({ role: 'buying' })} className={`btn btn--sm ${data.role === 'buying' ? 'btn--primary' : 'btn--ghost'}`} aria-current={data.role === 'buying' ? 'page' : undefined}>
            Я заказчик
          </AppLink>
          <AppLink to={link({ role: 'selling' })} className={`btn btn--sm ${data.role === 'selling' ? 'btn--primary' : 'btn--ghost'}`} aria-current={data.role === 'selling' ? 'page' : undefined}>
            Я исполнитель
          </AppLink>
        </div>
      </div>
      <nav className="tabs" aria-label="Состояние заказов">
        <ul>
          {ORDER_TABS.map((t) => (
            <li key={t.value}>
              <AppLink to={link({ status: t.value })} className="tabs__link" aria-current={t.value === data.tab ? 'page' : undefined}>
                {t.label}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      {data.failed ? (
        <div className="empty-state" role="alert">
          <p>Не удалось загрузить заказы.</p>
          <button type="button" className="btn btn--primary" onClick={() => void revalidator.revalidate()}>
            Повторить
          </button>
        </div>
      ) : orders.length === 0 ? (
        <div className="empty-state">
          <p>{data.role === 'buying' ? 'Здесь появятся заказы, которые вы сделаете.' : 'Здесь появятся заказы ваших услуг.'}</p>
          {data.role === 'buying' && (
            <AppLink to="/services" className="btn btn--primary">
              Найти услугу
            </AppLink>
          )}
        </div>
      ) : (
        <>
          <OrdersList orders={orders} role={data.role} />
          {next && (
            <ShowMore busy={loadingMore} onClick={() => void loadMore()} />
          )}
        </>
      )}
    </section>
  );
}
