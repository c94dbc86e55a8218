import type { Dispute } from '#contract/disputes';
import { DISPUTE_REASON_LABELS } from '#contract/dispute-constants';
import { formatDate } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { unseenText } from '../chat/index.ts';
import { DecisionSummary, DisputeStatusBadge, disputeTitle, personName } from './dispute-parts.tsx';
import { DisputeThread } from './dispute-thread.tsx';
import { appealPath, badgeCount, openerText } from './rules.ts';

/** One of a person's disputes: its order, reason, opener, decision (with an appeal), and its chat on demand. */
export function DisputeCard(props: { dispute: Dispute; me: string; open: boolean; onToggle: () => void; onCancel: () => void }) {
  const { dispute: d, me, open } = props;
  const unseen = d.unseen_messages;
  return (
    <li className="dispute-card" data-testid="dispute" data-dispute={d._id}>
      <div className="dispute-card__head">
        <p className="dispute-card__title">{disputeTitle(d)}</p>
        <DisputeStatusBadge status={d.status} />
      </div>
      <p className="dispute-card__reason">Причина: {DISPUTE_REASON_LABELS[d.reason]}</p>
      <p className="muted dispute-card__meta">
        {openerText(d, personName)} · {formatDate(d.created_at)}
      </p>
      <p className="dispute-card__text">{d.description}</p>
      {d.decision && (
        <>
          <DecisionSummary decision={d.decision} />
          <AppLink className="dispute-card__appeal" to={appealPath(d)}>
            Обжаловать решение
          </AppLink>
        </>
      )}
      <div className="dispute-card__actions">
        <button type="button" className="btn btn--ghost btn--sm" aria-expanded={open} onClick={props.onToggle}>
          {open ? 'Скрыть переписку' : 'Переписка'}
          {unseen > 0 && (
            <span className="unseen-badge" data-testid="dispute-unseen">
              <span aria-hidden>{badgeCount(unseen)}</span>
              <span className="visually-hidden">, {unseenText(unseen)}</span>
            </span>
          )}
        </button>
        {d.can_cancel && (
          <button type="button" className="btn btn--danger-text btn--sm" onClick={props.onCancel}>
            Отменить заявку
          </button>
        )}
      </div>
      {open && me && <DisputeThread key={d.chat._id} chatId={d.chat._id} me={me} />}
    </li>
  );
}
