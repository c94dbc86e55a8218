import type { Dispute, DisputeDecision } from '#contract/disputes';
import { DISPUTE_OUTCOME_LABELS, DISPUTE_STATUS_LABELS, type DisputeStatus } from '#contract/dispute-constants';
import type { PriceSplit } from '#contract/money';
import { splitTexts } from './split.ts';

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
      <SplitAmounts
        split={{
          customer: decision.customer_amount,
          seller: decision.seller_amount,
          commission: decision.commission,
          sellerNet: decision.seller_net,
        }}
        sellerPercent={decision.seller_percent}
      />
      {decision.comment && <p className="dispute-decision__comment">Комментарий арбитра: {decision.comment}</p>}
    </div>
  );
}

/** The customer's part, the seller's net and the commission of a split (the admin's preview, a decision). */
export function SplitAmounts({
  split,
  sellerPercent,
  testId,
}: {
  split: PriceSplit;
  sellerPercent: number;
  testId?: string;
}) {
  const t = splitTexts(split, sellerPercent);
  return (
    <ul className="dispute-decision__amounts" data-testid={testId}>
      <li>{t.customer}</li>
      <li>
        {t.seller}
        {t.commission && <span className="muted"> {t.commission}</span>}
      </li>
    </ul>
  );
}

export const disputeTitle = (d: Pick<Dispute, 'order'>) => `Заказ №${d.order.number} · ${d.order.title}`;
