import type { ApiError } from '#contract/api';
import type { Dispute } from '#contract/disputes';
import { splitPrice, type PriceSplit } from '#contract/money';
import { formatRubles } from '#contract/money-format';
import type { DisputeOutcome } from '#contract/dispute-constants';

// The disputes' rules on the pages, apart from their state: which field a server error belongs to, the admin's
// decision (its seller share and the split it gives), and how a person's dispute reads in their list.

export type DisputeField = 'reason' | 'description' | 'files';

/**
 * The server's errors by the form's fields: a field's own first error, or the first of its parts (`files.0`).
 * Empty when none is a field's: the message is then shown above the buttons.
 */
export function disputeFieldErrors(error: Pick<ApiError, 'errors'>): Partial<Record<DisputeField, string>> {
  const byField: Partial<Record<DisputeField, string>> = {};
  for (const f of ['reason', 'description', 'files'] as const) {
    const first = error.errors?.[f]?.[0] ?? Object.entries(error.errors ?? {}).find(([k]) => k.startsWith(`${f}.`))?.[1]?.[0];
    if (first) byField[f] = first;
  }
  return byField;
}

/**
 * The admin's decision as chosen: the seller's share (0 for a refund, 100 for a release, the typed percent for a
 * split), whether it may be sent (a whole number from 0 to 100), and the split the balances will receive — the
 * server settles with the same function, so the preview is exact.
 */
export function decisionOf(
  outcome: DisputeOutcome,
  percentText: string,
  order: { price: number; commission_bp: number },
): { percent: number; valid: boolean; split: PriceSplit } {
  const percent = outcome === 'refund' ? 0 : outcome === 'release' ? 100 : Number(percentText);
  const valid = Number.isInteger(percent) && percent >= 0 && percent <= 100 && (outcome !== 'split' || percentText.trim() !== '');
  return { percent, valid, split: splitPrice(order.price, valid ? percent : 0, order.commission_bp) };
}

/** The decision's request body: a seller share only for a split. */
export const resolveBody = (outcome: DisputeOutcome, percent: number, comment: string) => ({
  outcome,
  ...(outcome === 'split' ? { seller_percent: percent } : {}),
  comment,
});

/** What confirming a decision does, said before it is final. */
/** The amounts end in «руб.», which ends the sentence too (no second full stop). */
export const decisionConfirmText = (split: Pick<PriceSplit, 'customer' | 'sellerNet'>) =>
  `Заказчику вернётся ${formatRubles(split.customer)}, исполнителю будет зачислено ${formatRubles(split.sellerNet)} Изменить решение будет нельзя.`;

/** A count on a badge: up to 99, then "99+". */
export const badgeCount = (n: number) => (n > 99 ? '99+' : String(n));

/** Who opened the dispute, from the reader's side. */
export const openerText = (d: Pick<Dispute, 'role' | 'opened_by'>, name: (p: Dispute['opened_by']) => string) =>
  d.role === 'opener' ? 'Вы открыли спор' : `Спор открыла другая сторона: ${name(d.opened_by)}`;

/** An appeal against a dispute's decision, on the appeals tab. */
export const appealPath = (d: Pick<Dispute, '_id'>) => `/profile/disputes?tab=appeals&subject=dispute&object=${encodeURIComponent(d._id)}`;

/** The pages of a person's disputes read again, as one list: a dispute that moved between pages is shown once. */
export function mergePages<T extends { _id: string }>(pages: T[][]): T[] {
  const seen = new Set<string>();
  return pages.flat().filter((d) => !seen.has(d._id) && !!seen.add(d._id));
}

/** A dispute's chat as an event sends it: its unseen count on the dispute too. */
export const withChat = (list: Dispute[], chat: Dispute['chat']) =>
  list.map((d) => (d.chat._id === chat._id ? { ...d, unseen_messages: chat.unseen_messages, chat } : d));

/** A dispute's unseen count as the counters send it. */
export const withUnseen = (list: Dispute[], disputeId: string, n: number) =>
  list.map((d) => (d._id === disputeId ? { ...d, unseen_messages: n, chat: { ...d.chat, unseen_messages: n } } : d));
