import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { bids } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { bidInputSchema } from '#contract/bids';
import type { BidServiceDeps } from '../deps.ts';
import { checkComment, ownActiveBid } from './rules.ts';

/** PUT /api/bids/{id}: price, days, comment and stages (none when absent), while the bid and the project are active. */
export async function updateBid(deps: BidServiceDeps, user: UserRow, id: string, input: z.output<typeof bidInputSchema>): Promise<void> {
  await checkComment(deps.settings, input.comment);
  await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const { bid } = await ownActiveBid(tx, user, id);
    await tx
      .update(bids)
      .set({ ...input, stages: input.stages ?? null, updatedAt: clock.now() })
      .where(eq(bids.id, bid.id));
  });
}
