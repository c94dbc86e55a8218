import { data as answer } from 'react-router';
import type { Route } from './+types/payment';
import { errorMeta, pageMeta } from '../lib/meta.ts';
import { pageNotFound, requireSignedIn } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { PayPanel } from '../features/payments/index.ts';
import { OrderItems } from '../features/orders/index.ts';
import { formatRubles } from '#contract/money-format';
import '../styles/payments.css';
import '../styles/order-items.css';

// /payments/{orderId}: the order's customer pays it. Anyone else, and an unknown order, gets the 404 page.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  requireSignedIn(context.user, request);
  if (!UUID.test(params.orderId)) throw pageNotFound();
  const res = await context.read('payments.order', { params: { orderId: params.orderId } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return { page: res.body.result, returned: new URL(request.url).searchParams.get('payment') };
}

export const meta: Route.MetaFunction = ({ matches, data, error }) =>
  error || !data
    ? errorMeta(matches, error)
    : [...pageMeta(matches, `Оплата заказа №${data.page.order.number}`), { name: 'robots', content: 'noindex' }];

export default function PaymentPage({ loaderData }: Route.ComponentProps) {
  const { page, returned } = loaderData;
  const { order } = page;
  return (
    <section className="page pay-page">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: 'Мои платежи', to: '/profile/payments' }, { label: `Заказ №${order.number}` }]} />
      <h1 className="page__title">Оплата заказа №{order.number}</h1>
      <div className="pay-page__layout">
        <aside className="card pay-summary" aria-label="Заказ">
          <p className="pay-summary__title">{order.title}</p>
          <p className="muted">Исполнитель: {order.seller.name}</p>
          <OrderItems order={order} className="pay-summary__items" />
          <p className="pay-summary__price">{formatRubles(order.price)}</p>
        </aside>
        <PayPanel key={`${order.status}:${page.last_payment?.status ?? ''}`} page={page} returnedPayment={returned} />
      </div>
    </section>
  );
}
