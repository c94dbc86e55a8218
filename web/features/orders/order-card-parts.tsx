import type { OrderDetail } from '#contract/orders';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Price } from '../../components/ui/price.tsx';
import type { CardDialog, CardStep } from './card-steps.ts';
import { Countdown } from './countdown.tsx';
import { orderComplaintPath, orderCountdown, sellerEarnings } from './order-facts.ts';
import { isOpenPaid } from '#contract/order-states';
import { stageCountText } from './stage-facts.ts';

// The order card's rows that only show: the facts under the title, and the steps' buttons.

/** The price, the deadline, the revisions left, what the seller gets, and the complaint link. */
export function OrderFacts({ order }: { order: OrderDetail }) {
  const deadline = orderCountdown(order);
  // A head's revisions and earnings are its stages' (ADR 065): the timeline shows them stage by stage.
  const head = order.stage_count > 0;
  const earnings = head ? null : sellerEarnings(order);
  const stages = stageCountText(order);
  return (
    <div className="order-card__facts">
      <Price kopecks={order.price} className="order-card__price" />
      {stages && <span className="order-card__note">{stages}</span>}
      {deadline && <Countdown to={deadline.to} prefix={deadline.prefix} />}
      {isOpenPaid(order) && !head && <span className="order-card__note">Доработок осталось: {order.revisions_left}</span>}
      {earnings?.kind === 'settled' && (
        <span className="order-card__note" data-testid="order-settlement">
          {earnings.text}
        </span>
      )}
      {earnings?.kind === 'expected' && (
        <span className="order-card__note">
          Вы получите <Price kopecks={earnings.kopecks} />
        </span>
      )}
      <AppLink to={orderComplaintPath(order)} className="order-card__note order-card__report">
        Пожаловаться
      </AppLink>
    </div>
  );
}

/** The steps' row: the payment link, the buttons that open a dialog, and the answers to a proposal to cancel. */
export function OrderSteps(props: { orderId: string; steps: CardStep[]; busy: boolean; open: (d: CardDialog) => void; answer: (accept: boolean) => void }) {
  return (
    <div className="order-card__actions">
      {props.steps.map((step) =>
        step.kind === 'pay' ? (
          <AppLink key="pay" to={`/payments/${props.orderId}`} className={step.className}>
            {step.label}
          </AppLink>
        ) : step.kind === 'answer' ? (
          <button key={`answer-${step.accept}`} type="button" className={step.className} disabled={props.busy} onClick={() => props.answer(step.accept)}>
            {step.label}
          </button>
        ) : (
          <button key={step.dialog} type="button" className={step.className} onClick={() => props.open(step.dialog)}>
            {step.label}
          </button>
        ),
      )}
    </div>
  );
}
