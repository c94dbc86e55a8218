import { clearBidsUnread, type UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { BidServiceDeps } from '../deps.ts';

/** PUT /api/notifications/bids/flag: the customer opened /profile/bids; their other tabs hear it. */
export async function clearBidsFlag(deps: BidServiceDeps, user: UserRow): Promise<void> {
  await deps.platform.withTx(userActor(user), async ({ tx, outbox }) => {
    if (await clearBidsUnread(tx, user.id)) outbox.emit([user.id], 'bids_flag', { hasUnread: false });
  });
}
