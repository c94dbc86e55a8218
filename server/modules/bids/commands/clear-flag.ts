import { and, eq } from 'drizzle-orm';
import { users, type UserRow } from '../../users/schema.ts';
import { userActor } from '../../../platform/actor.ts';
import type { BidServiceDeps } from '../deps.ts';

/** PUT /api/notifications/bids/flag: the customer opened /profile/bids; their other tabs hear it. */
export async function clearBidsFlag(deps: BidServiceDeps, user: UserRow): Promise<void> {
  await deps.platform.withTx(userActor(user), async ({ tx, outbox }) => {
    const cleared = await tx
      .update(users)
      .set({ bidsUnread: false })
      .where(and(eq(users.id, user.id), eq(users.bidsUnread, true)))
      .returning({ id: users.id });
    if (cleared.length) outbox.emit([user.id], 'bids_flag', { hasUnread: false });
  });
}
