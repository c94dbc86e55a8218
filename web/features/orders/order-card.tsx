import { useCallback, useEffect, useState } from 'react';
import type { OrderDetail } from '#contract/orders';
import { ORDER_PACKAGE_LABELS } from '#contract/order-constants';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Price } from '../../components/ui/price.tsx';
import { ConfirmDialog, FileUploader, Modal } from '../items/index.ts';
import { ReviewForm } from '../reviews/index.ts';
import { DisputeForm } from '../disputes/index.ts';
import type { PendingReview } from '#contract/reviews';
import { Countdown } from './countdown.tsx';
import { OrderStatusBadge } from './status-badge.tsx';

// The order card above an order chat's messages (PRODUCT.md: the order's workspace is its chat): the state, the
// deadline, the price and the steps this member may take now. It reads the order afresh whenever a message
// arrives in the chat (every step posts one) or the order changes.

type Dialog = 'deliver' | 'revision' | 'cancel' | 'propose' | 'accept' | 'review' | 'dispute' | null;

export function OrderCard({ orderId, chatId }: { orderId: string; chatId: string }) {
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);

  // A completed order the member has not reviewed yet (ADR 029): the card offers «Оставить отзыв».
  const [pendingReview, setPendingReview] = useState<PendingReview | null>(null);
  const completed = order?.status === 'completed' && order.role !== null;
  useEffect(() => {
    if (!completed) return;
    let live = true;
    api.read('reviews.pending', {}, { fresh: true }).then(
      (res) => live && setPendingReview(res.result.find((p) => p.order_id === orderId) ?? null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [completed, orderId]);

  const load = useCallback(() => {
    api.read('orders.get', { params: { id: orderId } }, { fresh: true }).then(
      (res) => {
        setOrder(res.result);
        setFailed(false);
      },
      () => setFailed(true),
    );
  }, [orderId]);

  useEffect(() => {
    load();
    const offMessage = onSocketEvent('new_message', (e) => {
      if (e.chat._id === chatId) load();
    });
    const offOrder = onSocketEvent('order_updated', (e) => {
      if (e._id === orderId) load();
    });
    return () => {
      offMessage();
      offOrder();
    };
  }, [chatId, orderId, load]);

  const open = (d: Dialog) => {
    setText('');
    setFiles([]);
    setDialog(d);
  };

  async function run(step: () => Promise<{ data?: { result: OrderDetail }; error?: { message: string } }>, done: string) {
    setBusy(true);
    const { data, error } = await step();
    setBusy(false);
    if (error) {
      toast(error.message);
      return;
    }
    setOrder(data!.result);
    setDialog(null);
    toast(done, { type: 'success' });
  }

  if (failed && !order) return <div className="order-card order-card--failed">Не удалось загрузить заказ.</div>;
  if (!order) return <div className="order-card skeleton" style={{ height: 96 }} aria-busy="true" />;

  const params = { id: order._id };
  const can = (a: OrderDetail['actions'][number]) => order.actions.includes(a);
  const proposal = order.cancel_proposal;
  const proposedByOther = proposal && proposal.by !== (order.role === 'customer' ? order.customer._id : order.seller._id);
  // Either party of a paid order in progress or delivered may open a dispute (ADR 034).
  const canDispute = order.role !== null && (order.status === 'in_progress' || order.status === 'delivered');

  return (
    <div className="order-card" data-testid="order-card">
      <div className="order-card__head">
        <p className="order-card__title">
          Заказ №{order.number} · {order.title}
          {order.package && <span className="order-card__package"> · {ORDER_PACKAGE_LABELS[order.package]}</span>}
        </p>
        <OrderStatusBadge status={order.status} />
      </div>
      <div className="order-card__facts">
        <Price kopecks={order.price} className="order-card__price" />
        {order.status === 'in_progress' && <Countdown to={order.deadline_at} prefix="до срока" />}
        {order.status === 'delivered' && <Countdown to={order.auto_accept_at} prefix="автоприёмка через" />}
        {(order.status === 'in_progress' || order.status === 'delivered') && (
          <span className="order-card__note">Доработок осталось: {order.revisions_left}</span>
        )}
        {order.role === 'seller' && order.status !== 'cancelled' && (
          <span className="order-card__note">
            Вы получите <Price kopecks={order.price - order.commission} />
          </span>
        )}
        {/* A complaint about the order to the administration (issue 14). */}
        <AppLink to={`/profile/disputes?tab=appeals&subject=order&object=${order._id}`} className="order-card__note order-card__report">
          Пожаловаться
        </AppLink>
      </div>
      {proposal && (
        <p className="order-card__proposal">
          {proposedByOther ? 'Вам предлагают отменить заказ' : 'Вы предложили отменить заказ'}. Причина: {proposal.reason}
        </p>
      )}
      {pendingReview && (
        <div className="order-card__actions">
          <button type="button" className="btn btn--primary btn--sm" onClick={() => open('review')}>
            Оставить отзыв
          </button>
        </div>
      )}
      {pendingReview && (
        <Modal open={dialog === 'review'} title={`Отзыв по заказу №${order.number}`} onClose={() => setDialog(null)}>
          <ReviewForm
            orderId={order._id}
            role={pendingReview.role}
            targetName={`${pendingReview.target.name} ${pendingReview.target.surname}`.trim() || pendingReview.target.user_name}
            onDone={() => {
              setDialog(null);
              setPendingReview(null);
            }}
          />
        </Modal>
      )}
      {order.status === 'disputed' && order.role !== null && (
        <p className="order-card__proposal">
          По заказу открыт спор, заказ остановлен до решения арбитража. <AppLink to="/profile/disputes">Перейти к спору</AppLink>
        </p>
      )}
      {(order.actions.length > 0 || canDispute) && (
        <div className="order-card__actions">
          {can('pay') && (
            <AppLink to={`/payments/${order._id}`} className="btn btn--primary btn--sm">
              Оплатить
            </AppLink>
          )}
          {can('deliver') && (
            <button type="button" className="btn btn--primary btn--sm" onClick={() => open('deliver')}>
              Сдать работу
            </button>
          )}
          {can('accept') && (
            <button type="button" className="btn btn--success btn--sm" onClick={() => open('accept')}>
              Принять
            </button>
          )}
          {can('revision') && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => open('revision')}>
              Запросить доработку
            </button>
          )}
          {can('answer_cancel') && (
            <>
              <button
                type="button"
                className="btn btn--danger btn--sm"
                disabled={busy}
                onClick={() => void run(() => api.write('orders.answerCancel', { params, body: { accept: true } }), 'Заказ отменён')}
              >
                Согласиться на отмену
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                disabled={busy}
                onClick={() => void run(() => api.write('orders.answerCancel', { params, body: { accept: false } }), 'Предложение отклонено')}
              >
                Отклонить отмену
              </button>
            </>
          )}
          {can('propose_cancel') && (
            <button type="button" className="btn btn--quiet btn--sm" onClick={() => open('propose')}>
              Предложить отмену
            </button>
          )}
          {can('cancel') && (
            <button type="button" className="btn btn--danger-text btn--sm" onClick={() => open('cancel')}>
              Отменить заказ
            </button>
          )}
          {canDispute && (
            <button type="button" className="btn btn--danger-text btn--sm" onClick={() => open('dispute')}>
              Открыть спор
            </button>
          )}
        </div>
      )}
      {canDispute && (
        <Modal open={dialog === 'dispute'} title={`Спор по заказу №${order.number}`} onClose={() => setDialog(null)}>
          <DisputeForm
            orderId={order._id}
            onCancel={() => setDialog(null)}
            onDone={() => {
              setDialog(null);
              load();
            }}
          />
        </Modal>
      )}

      <Modal open={dialog === 'deliver'} title="Сдать работу" onClose={() => setDialog(null)}>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => api.write('orders.deliver', { params, body: { message: text, files } }), 'Работа сдана');
          }}
        >
          <label className="field">
            <span className="field__label">Сообщение заказчику</span>
            <textarea className="input input--area" required maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <FileUploader
            mode="files"
            label="Файлы результата"
            hint="До 10 файлов"
            value={files}
            onChange={(update) => setFiles(update)}
            max={10}
            onBusyChange={setUploading}
          />
          <div className="modal__actions">
            <button type="button" className="btn btn--ghost" onClick={() => setDialog(null)}>
              Отмена
            </button>
            <button type="submit" className="btn btn--primary" disabled={busy || uploading || !text.trim()}>
              Сдать работу
            </button>
          </div>
        </form>
      </Modal>

      <TextDialog
        open={dialog === 'revision'}
        title="Запросить доработку"
        label="Что нужно доработать"
        required
        submit="Отправить на доработку"
        busy={busy}
        text={text}
        setText={setText}
        onClose={() => setDialog(null)}
        onSubmit={() => void run(() => api.write('orders.revision', { params, body: { message: text } }), 'Заказ отправлен на доработку')}
      />
      <TextDialog
        open={dialog === 'cancel'}
        title="Отменить заказ?"
        label="Причина (необязательно)"
        submit="Отменить заказ"
        danger
        busy={busy}
        text={text}
        setText={setText}
        onClose={() => setDialog(null)}
        onSubmit={() => void run(() => api.write('orders.cancel', { params, body: { reason: text || null } }), 'Заказ отменён')}
      />
      <TextDialog
        open={dialog === 'propose'}
        title="Предложить отмену"
        label="Причина"
        required
        submit="Предложить"
        busy={busy}
        text={text}
        setText={setText}
        onClose={() => setDialog(null)}
        onSubmit={() => void run(() => api.write('orders.proposeCancel', { params, body: { reason: text } }), 'Предложение отправлено')}
      />
      <ConfirmDialog
        open={dialog === 'accept'}
        title="Принять работу?"
        text="Заказ завершится, и исполнитель получит оплату. Отменить это будет нельзя."
        confirmLabel="Принять"
        busy={busy}
        onConfirm={() => void run(() => api.write('orders.accept', { params }), 'Работа принята')}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}

function TextDialog(props: {
  open: boolean;
  title: string;
  label: string;
  submit: string;
  required?: boolean;
  danger?: boolean;
  busy: boolean;
  text: string;
  setText: (t: string) => void;
  onClose: () => void;
  onSubmit: () => void;
}) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        <label className="field">
          <span className="field__label">{props.label}</span>
          <textarea
            className="input input--area"
            required={props.required}
            maxLength={props.required ? 5000 : 1000}
            value={props.text}
            onChange={(e) => props.setText(e.target.value)}
          />
        </label>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={props.onClose}>
            Назад
          </button>
          <button type="submit" className={`btn ${props.danger ? 'btn--danger' : 'btn--primary'}`} disabled={props.busy || (props.required && !props.text.trim())}>
            {props.submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
