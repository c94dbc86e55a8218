import type { ReactNode } from 'react';
import type { Bid } from '#contract/bids';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Price } from '../../components/ui/price.tsx';
import { formatDate, formatRelative } from '../../lib/dates.ts';
import { daysText, LevelBadge, Rating } from '../catalog/index.ts';
import { displayName, userPath } from '../../lib/people.ts';
import { bidProjectPath, BidStatusBadge } from './format.tsx';

/**
 * One bid: the seller's public card (for the customer and admins) or the project (for the seller), the terms, the
 * comment and the actions this person may take.
 */
export function BidCard({ bid, show, actions }: { bid: Bid; show: 'seller' | 'project' | 'both'; actions?: ReactNode }) {
  const name = displayName(bid.seller);
  return (
    <article className="card bid-card" data-testid="bid-card">
      <header className="bid-card__head">
        {show !== 'project' && (
          <div className="bid-card__seller">
            <Avatar name={name} src={bid.seller.avatar} size={44} />
            <div>
              <AppLink to={userPath(bid.seller._id)} className="bid-card__name">
                {name}
              </AppLink>
              <div className="bid-card__facts">
                <LevelBadge level={bid.seller.level} />
                <Rating rating={bid.seller.rating} reviews={bid.seller.reviews_count} />
              </div>
            </div>
          </div>
        )}
        {show !== 'seller' && (
          <AppLink to={bidProjectPath(bid)} className="bid-card__project">
            {bid.project.title}
          </AppLink>
        )}
        <BidStatusBadge status={bid.status} />
      </header>
      <dl className="bid-card__terms">
        <div>
          <dt>Цена</dt>
          <dd>
            <Price kopecks={bid.price} />
          </dd>
        </div>
        <div>
          <dt>Срок</dt>
          <dd>{daysText(bid.days)}</dd>
        </div>
        <div>
          <dt>Отклик</dt>
          <dd>
            <time dateTime={bid.created_at} title={formatDate(bid.created_at)} suppressHydrationWarning>
              {formatRelative(bid.created_at)}
            </time>
          </dd>
        </div>
      </dl>
      <p className="bid-card__comment">{bid.comment}</p>
      {bid.stages && (
        <ol className="bid-card__stages" aria-label="Этапы работы">
          {bid.stages.map((s, i) => (
            <li key={i}>
              {s.title} — <span className="bid-card__stage-terms"><Price kopecks={s.amount} />, {daysText(s.days)}</span>
              <span className="bid-card__stage-deliverable">{s.deliverable}</span>
            </li>
          ))}
        </ol>
      )}
      {actions && <div className="bid-card__actions">{actions}</div>}
    </article>
  );
}
