import { MessageCircle } from '../../components/ui/icons.tsx';
import type { Order } from '#contract/orders';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Price } from '../../components/ui/price.tsx';
import { Countdown } from './countdown.tsx';
import { OrderStatusBadge } from './status-badge.tsx';
import { OrderItems } from './order-items.tsx';
import { orderChatPath, orderCountdown, orderRowPath, partyName } from './order-facts.ts';
import { stageCountText } from './stage-facts.ts';

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

export function OrderRow({ order, role }: { order: Order; role: OrdersRole }) {
  const other = role === 'buying' ? order.seller : order.customer;
  const path = orderRowPath(order);
  const deadline = orderCountdown(order);
  const stages = stageCountText(order);
  return (
    <li className="card order-row">
      <div className="order-row__main">
        <p className="order-row__number">
          Заказ №{order.number} <OrderStatusBadge status={order.status} />
        </p>
        {path ? (
          <AppLink to={path} className="order-row__title">
            {order.title}
          </AppLink>
        ) : (
          <span className="order-row__title">{order.title}</span>
        )}
        {order.extras.length > 0 && <OrderItems order={order} className="order-row__items" />}
        {!order.chat_id && order.cancel_reason && <p className="order-row__reason">{order.cancel_reason}</p>}
        <p className="order-row__who">
          <Avatar name={partyName(other)} src={other.avatar} size={24} />
          <span>
            {role === 'buying' ? 'Исполнитель' : 'Заказчик'}: {partyName(other)}
          </span>
        </p>
      </div>
      <div className="order-row__side">
        <Price kopecks={order.price} className="order-row__price" />
        {stages && <span className="order-row__stages">{stages}</span>}
        {deadline && <Countdown to={deadline.to} prefix={deadline.prefix} />}
        <div className="order-row__actions">
          {order.actions.includes('pay') && (
            <AppLink to={`/payments/${order._id}`} className="btn btn--primary btn--sm">
              Оплатить
            </AppLink>
          )}
          {order.chat_id && (
            <AppLink to={orderChatPath(order)} className="btn btn--ghost btn--sm">
              <MessageCircle size={16} aria-hidden /> Чат заказа
            </AppLink>
          )}
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
