import { eq } from 'drizzle-orm';
import { bids } from '../schema.ts';
import { uncountBid } from '../../projects/index.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { BID_MESSAGES } from '#contract/bids';
import type { BidServiceDeps } from '../deps.ts';
import { conflict } from './rules.ts';

/** DELETE /api/admin/bids/{id}: an abusive bid goes, with an audit row; an accepted one stays (its order). */
export async function adminRemoveBid(deps: BidServiceDeps, admin: UserRow, id: string): Promise<void> {
  await deps.platform.withTx(userActor(admin), async ({ tx }) => {
    const [bid] = await tx.select().from(bids).where(eq(bids.id, id)).for('update');
    if (!bid) throw notFound(BID_MESSAGES.notFound);
    if (bid.status === 'accepted') throw conflict(BID_MESSAGES.acceptedRemove);
    await tx.delete(bids).where(eq(bids.id, id));
    if (bid.status !== 'withdrawn') {
      await uncountBid(tx, bid.projectId);
    }
    await audit(tx, {
      actorId: admin.id,
      action: 'bid.remove',
      targetType: 'bid',
      targetId: id,
      details: { project: bid.projectId, seller: bid.sellerId, status: bid.status, price: bid.price },
    });
  });
}
