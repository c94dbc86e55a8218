import { data as answer } from 'react-router';
import type { Route } from './+types/payment';
import { errorMeta, pageMeta } from '../lib/meta.ts';
import { pageNotFound, requireSignedIn } from '../lib/guards.ts';
import { Breadcrumbs } from '../components/ui/breadcrumbs.tsx';
import { PayPanel, payCrumb, payTitle, type PayStage } from '../features/payments/index.ts';
import { OrderItems } from '../features/orders/index.ts';
import { formatRubles } from '#contract/money-format';
import '../styles/payments.css';
import '../styles/order-items.css';

// /payments/{orderId}: the order's customer pays it. Anyone else, and an unknown order, gets the 404 page. A stage
// of an order in stages (ADR 065) is paid here too: the page names the stage, and leads back to its head's chat.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ params, context, url }: Route.LoaderArgs) {
  requireSignedIn(context.user, url);
  if (!UUID.test(params.orderId)) throw pageNotFound();
  const [res, detail] = await Promise.all([
    context.read('payments.order', { params: { orderId: params.orderId } }),
    context.read('orders.get', { params: { id: params.orderId } }),
  ]);
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  let page = res.body.result;
  // The payment's page knows nothing of stages: the order's own answer says whether it is one, and of which head.
  const info = detail.ok ? detail.body.result.stage : null;
  const stage: PayStage = info && { number: info.number, title: info.title, head_number: info.head_number };
  if (info) {
    const head = await context.read('orders.get', { params: { id: info.head_id } });
    const chat = head.ok ? head.body.result.chat_id : null;
    if (chat) page = { ...page, chat_id: chat };
  }
  return { page, stage, deliverable: info?.deliverable ?? null, returned: url.searchParams.get('payment') };
}

export const meta: Route.MetaFunction = ({ matches, data, error }) =>
  error || !data
    ? errorMeta(matches, error)
    : [...pageMeta(matches, payTitle(data.page.order, data.stage)), { name: 'robots', content: 'noindex' }];

export default function PaymentPage({ loaderData }: Route.ComponentProps) {
  const { page, stage, deliverable, returned } = loaderData;
  const { order } = page;
  return (
    <section className="page pay-page">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: 'Мои платежи', to: '/profile/payments' }, { label: payCrumb(order, stage) }]} />
      <h1 className="page__title">{payTitle(order, stage)}</h1>
      <div className="pay-page__layout">
        <aside className="card pay-summary" aria-label="Заказ">
          <p className="pay-summary__title">{order.title}</p>
          <p className="muted">Исполнитель: {order.seller.name}</p>
          {deliverable !== null ? (
            <p className="pay-summary__items">Результат этапа: {deliverable}</p>
          ) : (
            <OrderItems order={order} className="pay-summary__items" />
          )}
          <p className="pay-summary__price">{formatRubles(order.price)}</p>
        </aside>
        <PayPanel key={`${order.status}:${page.last_payment?.status ?? ''}`} page={page} returnedPayment={returned} stage={stage !== null} />
      </div>
    </section>
  );
}
