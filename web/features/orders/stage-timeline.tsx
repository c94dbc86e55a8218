import type { OrderDelivery, OrderStageDetail } from '#contract/orders';
import { pluralWithCount } from '#contract/plural';
import { isDisputed, isOpenPaid } from '#contract/order-states';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Price } from '../../components/ui/price.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { cardSteps, type CardDialog } from './card-steps.ts';
import { Countdown } from './countdown.tsx';
import { OrderSteps } from './order-card-parts.tsx';
import { orderCountdown, proposalText, sellerEarnings } from './order-facts.ts';
import { currentStage, stageFunds } from './stage-facts.ts';
import { OrderStatusBadge } from './status-badge.tsx';

// The timeline of an order in stages (ADR 065) on its card: each stage a whole order with its own state, money,
// deliveries and the steps its member may take. The current stage is open; the others open on demand (on a
// phone the list would otherwise bury the chat).

export interface StageHandlers {
  busy: boolean;
  open: (dialog: CardDialog, stage: OrderStageDetail) => void;
  answer: (accept: boolean, stage: OrderStageDetail) => void;
}

export function StageTimeline({ stages, ...handlers }: { stages: OrderStageDetail[] } & StageHandlers) {
  const current = currentStage(stages);
  return (
    <ol className="stage-timeline" aria-label="Этапы заказа" data-testid="stage-timeline">
      {stages.map((s) => (
        <StageItem key={s._id} stage={s} current={s._id === current?._id} {...handlers} />
      ))}
    </ol>
  );
}

/** Before payment a stage has its days; once paid, its deadline. */
const stageTerm = (s: Pick<OrderStageDetail, 'deadline_at' | 'days'>) =>
  s.deadline_at ? `до ${formatDate(s.deadline_at)}` : pluralWithCount(s.days, 'день', 'дня', 'дней');

function StageItem({ stage, current, busy, open, answer }: { stage: OrderStageDetail; current: boolean } & StageHandlers) {
  const info = stage.stage;
  if (!info) return null;
  const funds = stageFunds(info);
  const steps = cardSteps(stage);
  const deadline = orderCountdown(stage);
  const proposal = proposalText(stage);
  const earnings = sellerEarnings(stage);
  return (
    <li className={`stage-timeline__item stage-timeline__item--${stage.status}${current ? ' stage-timeline__item--current' : ''}`} data-testid="stage">
      <details className="stage" open={current}>
        <summary className="stage__summary">
          <span className="stage__name">
            <span className="stage__number">Этап {info.number}</span> <span className="stage__title">{info.title}</span>
          </span>
          <span className="stage__facts">
            <Price kopecks={stage.price} className="stage__price" />
            <span className="stage__term">{stageTerm(stage)}</span>
            <OrderStatusBadge status={stage.status} />
            <span className={`badge status-badge stage__funds${funds.tone ? ` status-badge--${funds.tone}` : ''}`}>{funds.text}</span>
          </span>
        </summary>
        <div className="stage__body">
          <p className="stage__deliverable">
            <span className="stage__label">Результат этапа:</span> {info.deliverable}
          </p>
          <div className="stage__notes">
            {deadline && <Countdown to={deadline.to} prefix={deadline.prefix} />}
            {isOpenPaid(stage) && <span className="order-card__note">Доработок осталось: {stage.revisions_left}</span>}
            {earnings?.kind === 'settled' && <span className="order-card__note">{earnings.text}</span>}
            {earnings?.kind === 'expected' && (
              <span className="order-card__note">
                Вы получите <Price kopecks={earnings.kopecks} />
              </span>
            )}
          </div>
          {proposal && <p className="order-card__proposal">{proposal}</p>}
          {isDisputed(stage) && stage.role !== null && (
            <p className="order-card__proposal">
              По этапу открыт спор, этап остановлен до решения арбитража. <AppLink to="/profile/disputes">Перейти к спору</AppLink>
            </p>
          )}
          {stage.deliveries.length > 0 && <StageDeliveries deliveries={stage.deliveries} />}
          {steps.length > 0 && (
            <OrderSteps orderId={stage._id} steps={steps} busy={busy} open={(d) => open(d, stage)} answer={(accept) => answer(accept, stage)} />
          )}
        </div>
      </details>
    </li>
  );
}

/** What the seller handed over for this stage, newest first. */
function StageDeliveries({ deliveries }: { deliveries: OrderDelivery[] }) {
  return (
    <ul className="stage__deliveries" aria-label="Сдачи этапа">
      {deliveries.map((d) => (
        <li key={d._id} className="stage__delivery">
          <span className="stage__delivery-meta">
            Сдано <time dateTime={d.created_at}>{formatDateTime(d.created_at)}</time>
          </span>
          <span className="stage__delivery-text">{d.message}</span>
          {d.files.length > 0 && (
            <span className="stage__delivery-files">
              {d.files.map((f) => (
                <a key={f.url} href={f.url} target="_blank" rel="noreferrer">
                  {f.name}
                </a>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
