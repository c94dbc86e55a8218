import type { Dispute, DisputeDecision } from '#contract/disputes';
import { DISPUTE_OUTCOME_LABELS, DISPUTE_STATUS_LABELS, type DisputeStatus } from '#contract/dispute-constants';
import { Price } from '../../components/ui/price.tsx';

// Small pieces the person's and the admin's dispute pages share.

export const personName = (p: { name: string; surname: string; user_name: string }) => `${p.name} ${p.surname}`.trim() || p.user_name;

const TONE: Record<DisputeStatus, string> = { open: 'warning', resolved: 'success', cancelled: 'muted' };

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  return <span className={`badge status-badge status-badge--${TONE[status]}`}>{DISPUTE_STATUS_LABELS[status]}</span>;
}

/** The decision in words and amounts (what each balance received). */
export function DecisionSummary({ decision }: { decision: DisputeDecision }) {
  return (
    <div className="dispute-decision" data-testid="dispute-decision">
      <p className="dispute-decision__title">Решение: {DISPUTE_OUTCOME_LABELS[decision.outcome]}</p>
      <ul className="dispute-decision__amounts">
        <li>
          Заказчику ({100 - decision.seller_percent}%): <Price kopecks={decision.customer_amount} />
        </li>
        <li>
          Исполнителю ({decision.seller_percent}%): <Price kopecks={decision.seller_net} />
          {decision.commission > 0 && (
            <span className="muted">
              {' '}
              (из <Price kopecks={decision.seller_amount} />, комиссия <Price kopecks={decision.commission} />)
            </span>
          )}
        </li>
      </ul>
      {decision.comment && <p className="dispute-decision__comment">Комментарий арбитра: {decision.comment}</p>}
    </div>
  );
}

export const disputeTitle = (d: Pick<Dispute, 'order'>) => `Заказ №${d.order.number} · ${d.order.title}`;
