import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Message } from '#contract/chat';
import type { Order, OrderDetail } from '#contract/orders';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { Price } from '../../components/ui/price.tsx';
import { ListSearch, StateTabs, NextPage, useListLink } from '../../components/ui/list-controls.tsx';
import { Modal } from '../../components/ui/dialog.tsx';
import { OrderStatusBadge } from './status-badge.tsx';
import { OrderItems } from './order-items.tsx';
import { AdminStages } from './admin-stages.tsx';
import { adminDeadlineText, foundText, messageAuthor, partyName } from './order-facts.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// /admin/orders: every order with filters (state, number or title); any of them opens with its deliveries and
// its chat's messages.

export const ADMIN_ORDER_TABS = [
  { value: 'all', label: 'Все' },
  { value: 'awaiting_payment', label: 'Ждут оплаты' },
  { value: 'in_progress', label: 'В работе' },
  { value: 'delivered', label: 'Сданы' },
  { value: 'completed', label: 'Завершены' },
  { value: 'cancelled', label: 'Отменены' },
  { value: 'disputed', label: 'Споры' },
] as const;

export function AdminOrders({ orders, total, next, failed }: { orders: Order[]; total: number; next: string | null; failed: boolean }) {
  const [params] = useSearchParams();
  const tab = params.get('status') ?? 'all';
  const q = params.get('q') ?? '';
  const [openId, setOpenId] = useState<string | null>(null);
  const link = useListLink('/admin/orders', 'all');

  return (
    <section className="page">
      <h1 className="page__title">Заказы</h1>
      <StateTabs tabs={ADMIN_ORDER_TABS} current={tab} link={link} />
      <ListSearch q={q} status={tab === 'all' ? null : tab} placeholder="Номер заказа или слова названия" resetTo={link({ q: null })} />
      {failed ? (
        <p className="empty-state" role="alert">
          Не удалось загрузить заказы.
        </p>
      ) : orders.length === 0 ? (
        <p className="empty-state">Заказов не нашлось.</p>
      ) : (
        <>
          <p className="field__hint">Найдено: {foundText(total)}</p>
          <table className="table admin-orders">
            <thead>
              <tr>
                <th scope="col">Заказ</th>
                <th scope="col">Заказчик → исполнитель</th>
                <th scope="col">Цена</th>
                <th scope="col">Состояние</th>
                <th scope="col">Создан</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o._id}>
                  <td>
                    <button type="button" className="admin-orders__open" onClick={() => setOpenId(o._id)}>
                      №{o.number} · {o.title}
                    </button>
                    {o.extras.length > 0 && <OrderItems order={o} className="admin-orders__items" />}
                  </td>
                  <td data-label="Стороны">
                    {partyName(o.customer)} → {partyName(o.seller)}
                  </td>
                  <td data-label="Цена">
                    <Price kopecks={o.price} />
                  </td>
                  <td data-label="Состояние">
                    <OrderStatusBadge status={o.status} />
                  </td>
                  <DateCell label="Создан" date={o.created_at} />
                </tr>
              ))}
            </tbody>
          </table>
          <NextPage next={next} link={link} />
        </>
      )}
      <Modal open={openId !== null} title="Заказ" onClose={() => setOpenId(null)}>
        {openId && <AdminOrderDetail id={openId} onClose={() => setOpenId(null)} />}
      </Modal>
    </section>
  );
}

function AdminOrderDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.read('admin.orders.get', { params: { id } }, { fresh: true }).then(
      async (res) => {
        if (!live) return;
        setOrder(res.result);
        if (res.result.chat_id) {
          const chat = await api.read('admin.chats.messages', { params: { id: res.result.chat_id }, query: { limit: 50 } }, { fresh: true });
          if (live) setMessages([...chat.result].reverse());
        }
      },
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [id]);
  if (failed) return <p role="alert">Не удалось загрузить заказ.</p>;
  if (!order) return <div className="skeleton" style={{ height: 200 }} aria-busy="true" />;
  return (
    <div className="admin-order">
      <p className="admin-order__title">
        №{order.number} · {order.title} <OrderStatusBadge status={order.status} />
      </p>
      <dl className="admin-order__facts">
        <dt>Заказчик</dt>
        <dd>{partyName(order.customer)}</dd>
        <dt>Исполнитель</dt>
        <dd>{partyName(order.seller)}</dd>
        <dt>Состав</dt>
        <dd>
          <OrderItems order={order} />
        </dd>
        <dt>Цена</dt>
        <dd>
          <Price kopecks={order.price} /> (комиссия <Price kopecks={order.commission} />)
        </dd>
        <dt>Срок</dt>
        <dd>{adminDeadlineText(order)}</dd>
        <dt>Доработки</dt>
        <dd>
          {order.revisions_left} из {order.revisions_total}
        </dd>
        {order.cancel_reason && (
          <>
            <dt>Причина отмены</dt>
            <dd>{order.cancel_reason}</dd>
          </>
        )}
      </dl>
      {order.stages && order.stages.length > 0 && (
        <>
          <h3 className="admin-order__sub">Этапы</h3>
          <AdminStages stages={order.stages} />
        </>
      )}
      <h3 className="admin-order__sub">Переписка</h3>
      {messages.length === 0 ? (
        <p className="field__hint">Сообщений нет.</p>
      ) : (
        <ol className="admin-order__messages">
          {messages.map((m) => (
            <li key={m._id} className={`admin-order__message admin-order__message--${m.kind}`}>
              <span className="admin-order__meta">
                {messageAuthor(m)} ·{' '}
                {formatDate(m.created_at)}
              </span>
              <span className="admin-order__text">{m.message}</span>
              {m.files.length > 0 && <span className="field__hint">Файлов: {m.files.length}</span>}
            </li>
          ))}
        </ol>
      )}
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          Закрыть
        </button>
      </div>
    </div>
  );
}
