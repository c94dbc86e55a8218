import { useState } from 'react';
import type { Order } from '#contract/orders';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { cardSteps, type CardDialog } from './card-steps.ts';
import { OrderDialogs, type StepRequest } from './order-dialogs.tsx';
import { OrderFacts, OrderSteps } from './order-card-parts.tsx';
import { OrderItems } from './order-items.tsx';
import { proposalText } from './order-facts.ts';
import { OrderStatusBadge } from './status-badge.tsx';
import { OfferPanel } from './offer-panel.tsx';
import { StageTimeline } from './stage-timeline.tsx';
import { isHead } from './stage-facts.ts';
import { useLiveOrder, usePendingReview } from './use-order.ts';
import { isCompleted, isDisputed } from '#contract/order-states';

// The order card above an order chat's messages (PRODUCT.md: the order's workspace is its chat): the state, the
// deadline, the price and the steps this member may take now. It reads the order afresh whenever a message
// arrives in the chat (every step posts one) or the order changes. An order in stages (ADR 065) shows its stages'
// timeline instead: each step is taken on a stage, and the head (a roll-up of its stages) is read afresh after it.

export function OrderCard({ orderId, chatId }: { orderId: string; chatId: string }) {
  const { order, setOrder, failed, load } = useLiveOrder(orderId, chatId);
  const [dialog, setDialog] = useState<CardDialog | null>(null);
  // The stage a dialog is about; null for the order itself.
  const [target, setTarget] = useState<Order | null>(null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  // On a phone the card shows the title, status, price, deadline and the main step; the rest opens on demand (issue 25:
  // it took 45 % of the screen above the conversation).
  const [expanded, setExpanded] = useState(false);
  const [pendingReview, setPendingReview] = usePendingReview(
    orderId,
    !!order && isCompleted(order) && order.role !== null,
  );

  const open = (d: CardDialog, stage: Order | null = null) => {
    setText('');
    setFiles([]);
    setTarget(stage);
    setDialog(d);
  };
  const close = () => setDialog(null);

  async function run(step: StepRequest, done: string, stage: Order | null = target) {
    setBusy(true);
    const { data, error } = await step();
    setBusy(false);
    if (error) {
      toast(error.message);
      return;
    }
    // A stage's step answers with the stage: the head's roll-up and the other stages are read again.
    if (stage) load();
    else setOrder(data!.result);
    setDialog(null);
    toast(done, { type: 'success' });
  }

  if (failed && !order) return <div className="order-card order-card--failed">Не удалось загрузить заказ.</div>;
  if (!order) return <div className="order-card skeleton" style={{ height: 96 }} aria-busy="true" />;

  const steps = cardSteps(order);
  const proposal = proposalText(order);
  const answer = (accept: boolean, stage: Order | null = null) => {
    setTarget(stage);
    const id = stage?._id ?? order._id;
    const done = accept ? (stage ? 'Этап отменён' : 'Заказ отменён') : 'Предложение отклонено';
    void run(() => api.write('orders.answerCancel', { params: { id }, body: { accept } }), done, stage);
  };
  const head = isHead(order);

  return (
    <div className={`order-card${expanded ? ' order-card--expanded' : ''}`} data-testid="order-card">
      <div className="order-card__head">
        <p className="order-card__title">
          Заказ №{order.number} · {order.title}
        </p>
        <OrderStatusBadge status={order.status} />
      </div>
      {/* What was ordered (ADR 042): shown when there is more than the package to show. */}
      {order.extras.length > 0 && <OrderItems order={order} className="order-card__items" />}
      <OrderFacts order={order} />
      {proposal && <p className="order-card__proposal">{proposal}</p>}
      {pendingReview && (
        <div className="order-card__actions">
          <button type="button" className="btn btn--primary btn--sm" onClick={() => open('review')}>
            Оставить отзыв
          </button>
        </div>
      )}
      {/* A head's dispute is about one stage: the timeline says which. */}
      {isDisputed(order) && order.role !== null && !head && (
        <p className="order-card__proposal">
          По заказу открыт спор, заказ остановлен до решения арбитража.{' '}
          <AppLink to="/profile/disputes">Перейти к спору</AppLink>
        </p>
      )}
      {head && <StageTimeline stages={order.stages} busy={busy} open={open} answer={answer} />}
      {/* A new job offered in this chat (ADR 066); not in a service's unpaid draft, which has no chat yet. */}
      {order.role && order.chat_id && <OfferPanel orderId={order._id} chatId={order.chat_id} role={order.role} />}
      {steps.length > 0 && (
        <OrderSteps orderId={order._id} steps={steps} busy={busy} open={(d) => open(d)} answer={(a) => answer(a)} />
      )}
      {/* Beside the actions' row on a phone (orders.css). */}
      <button
        type="button"
        className="order-card__toggle"
        aria-expanded={expanded}
        onClick={() => setExpanded((v) => !v)}
      >
        {expanded ? 'Свернуть' : 'Подробнее'}
      </button>
      <OrderDialogs
        order={target ?? order}
        dialog={dialog}
        busy={busy}
        draft={{ text, setText, files, setFiles, uploading, setUploading }}
        pendingReview={pendingReview}
        close={close}
        run={(step, done) => void run(step, done)}
        onReviewed={() => {
          setDialog(null);
          setPendingReview(null);
        }}
        onDisputed={() => {
          setDialog(null);
          load();
        }}
      />
    </div>
  );
}
