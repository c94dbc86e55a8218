import type { UserRow } from '../../users/index.ts';
import { badRequest, HttpError } from '../../../lib/http.ts';
import type { SettingsService } from '../../../platform/settings.ts';
import type { Tx } from '../../../platform/tx.ts';
import { MESSAGES } from '#contract/messages';
import { BID_MESSAGES } from '#contract/bids';
import { bidPolicy } from '../policy.ts';
import { bidSubject } from '../records.ts';

// What the seller's and the customer's bid commands check alike, and how they refuse.

export const conflict = (message: string) => new HttpError(409, message);

/** Whether an error is a unique violation (23505), from the driver or wrapped by Drizzle. */
export function uniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
}

/** Characters as a person counts them (the form's counter counts the same way). */
const length = (text: string) => Array.from(text).length;

/** The comment is at least the operator's minimum (bids.minComment). */
export async function checkComment(settings: SettingsService, comment: string) {
  const min = await settings.get('bids.minComment');
  if (length(comment) < min) throw badRequest(MESSAGES.validation, { comment: [BID_MESSAGES.commentTooShort(min)] });
}

/** The seller's active bid on an active project, locked, for an edit or a withdrawal. */
export async function ownActiveBid(tx: Tx, user: UserRow, id: string) {
  const subject = bidPolicy.authorize(user, 'change', await bidSubject(tx, id, true));
  if (subject.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
  if (subject.bid.status !== 'active') throw conflict(BID_MESSAGES.notActive);
  return subject;
}
