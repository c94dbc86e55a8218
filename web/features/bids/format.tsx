import type { Bid } from '#contract/bids';
import { BID_STATUS_TITLES } from '#contract/bid-constants';

/** The project page of a bid. */
export const bidProjectPath = (bid: Pick<Bid, 'project'>) => `/projects/${bid.project.category}/${bid.project._id}`;

const TONES = { active: 'success', accepted: 'success', rejected: 'danger', withdrawn: 'muted' } as const;

/** A bid's state as a coloured badge. */
export function BidStatusBadge({ status }: { status: Bid['status'] }) {
  return <span className={`badge bid-status bid-status--${TONES[status]}`}>{BID_STATUS_TITLES[status]}</span>;
}

/** Characters as the server counts them (code points). */
export const charCount = (text: string) => Array.from(text.trim()).length;
