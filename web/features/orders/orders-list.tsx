import { MessageCircle } from '../../components/ui/icons.tsx';
import type { Order } from '#contract/orders';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Price } from '../../components/ui/price.tsx';
import { Countdown } from './countdown.tsx';
import { OrderStatusBadge } from './status-badge.tsx';

// /profile/orders: a person's orders as cards, buying or selling, by state.

export type OrdersRole = 'buying' | 'selling';

export const ORDER_TABS = [
  { value: 'all', label: 'Все' },
  { value: 'awaiting_payment', label: 'Ждут оплаты' },
  { value: 'in_progress', label: 'В работе' },
  { value: 'delivered', label: 'Сданы' },
  { value: 'completed', label: 'Завершены' },
  { value: 'cancelled', label: 'Отменены' },
] as const;
export type OrderTab = (typeof ORDER_TABS)[number]['value'];

/** The order's chat in the messages page ("Заказы" tab). */
export const orderChatPath = (o: Pick<Order, 'chat_id'>) => (o.chat_id ? `/profile/messages?tab=orders&chat=${o.chat_id}` : '/profile/messages?tab=orders');

const name = (p: { name: string; surname: string; user_name: string }) => `${p.name} ${p.surname}`.trim() || p.user_name;

export function OrderRow({ order, role }: { order: Order; role: OrdersRole }) {
  const other = role === 'buying' ? order.seller : order.customer;
  const running = order.status === 'in_progress' || order.status === 'delivered';
  return (
    <li className="card order-row">
      <div className="order-row__main">
        <p className="order-row__number">
          Заказ №{order.number} <OrderStatusBadge status={order.status} />
        </p>
        <AppLink to={orderChatPath(order)} className="order-row__title">
          {order.title}
        </AppLink>
        <p className="order-row__who">
          <Avatar name={name(other)} src={other.avatar} size={24} />
          <span>
            {role === 'buying' ? 'Исполнитель' : 'Заказчик'}: {name(other)}
          </span>
        </p>
      </div>
      <div className="order-row__side">
        <Price kopecks={order.price} className="order-row__price" />
        {running && order.status === 'in_progress' && <Countdown to={order.deadline_at} prefix="до срока" />}
        {order.status === 'delivered' && <Countdown to={order.auto_accept_at} prefix="автоприёмка через" />}
        <div className="order-row__actions">
          {order.actions.includes('pay') && (
            <AppLink to={`/payments/${order._id}`} className="btn btn--primary btn--sm">
              Оплатить
            </AppLink>
          )}
          <AppLink to={orderChatPath(order)} className="btn btn--ghost btn--sm">
            <MessageCircle size={16} aria-hidden /> Чат заказа
          </AppLink>
        </div>
      </div>
    </li>
  );
}

export function OrdersList({ orders, role }: { orders: Order[]; role: OrdersRole }) {
  return (
    <ul className="order-list" aria-label="Заказы">
      {orders.map((o) => (
        <OrderRow key={o._id} order={o} role={role} />
      ))}
    </ul>
  );
}
