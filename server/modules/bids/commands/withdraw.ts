import { eq } from 'drizzle-orm';
import { bids } from '../schema.ts';
import { uncountBid } from '../../projects/index.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { BidServiceDeps } from '../deps.ts';
import { ownActiveBid } from './rules.ts';

/** DELETE /api/bids/{id}: withdrawn; the seller may bid on the project again (it counts as a new bid). */
export async function withdrawBid(deps: BidServiceDeps, user: UserRow, id: string): Promise<void> {
  await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const { bid } = await ownActiveBid(tx, user, id);
    await tx.update(bids).set({ status: 'withdrawn', updatedAt: clock.now() }).where(eq(bids.id, bid.id));
    await uncountBid(tx, bid.projectId);
  });
}
