import type { Bid } from '#contract/bids';
import { BID_STATUSES, type BidStatus } from '#contract/money';

// What the bids pages read from their URL, and which of their bids may be acted on.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The status of the URL, if it is one. */
export function statusOf(url: URL): BidStatus | undefined {
  const status = url.searchParams.get('status');
  return (BID_STATUSES as readonly string[]).includes(status ?? '') ? (status as BidStatus) : undefined;
}

/** /admin/bids' query from its URL: a known status, a project and a seller by id, the cursor; anything else is left out. */
export function adminBidsQuery(url: URL) {
  const p = url.searchParams;
  const status = statusOf(url);
  return {
    limit: 30,
    ...(status ? { status } : {}),
    ...(UUID.test(p.get('project') ?? '') ? { project: p.get('project')! } : {}),
    ...(UUID.test(p.get('seller') ?? '') ? { seller: p.get('seller')! } : {}),
    ...(p.get('cursor') ? { cursor: p.get('cursor')! } : {}),
  };
}

/** /profile/bids' query from its URL: a known status and the cursor. */
export function myBidsQuery(url: URL) {
  const status = statusOf(url);
  const cursor = url.searchParams.get('cursor') ?? undefined;
  return { limit: 20, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
}

/** The next page's link: the same filters, the next cursor. */
export function withCursor(params: URLSearchParams, cursor: string): string {
  const q = new URLSearchParams(params);
  q.set('cursor', cursor);
  return `?${q}`;
}

export const BID_TABS: { value: BidStatus | ''; label: string }[] = [
  { value: '', label: 'Все' },
  { value: 'active', label: 'Активные' },
  { value: 'accepted', label: 'Принятые' },
  { value: 'rejected', label: 'Отклонённые' },
  { value: 'withdrawn', label: 'Отозванные' },
];

/** The tabs of /profile/bids: a customer never sees withdrawn bids, so has no tab for them. */
export const bidTabs = (role: 'seller' | 'customer') => BID_TABS.filter((t) => role === 'seller' || t.value !== 'withdrawn');

/** A customer may accept an active bid on a project still open for bids. */
export const acceptable = (bid: Pick<Bid, 'status'> & { project: Pick<Bid['project'], 'status'> }) =>
  bid.status === 'active' && bid.project.status === 'active';

/** The bids a project's customer sees: every one but the withdrawn. */
export const liveBids = <T extends Pick<Bid, 'status'>>(bids: T[]) => bids.filter((b) => b.status !== 'withdrawn');
