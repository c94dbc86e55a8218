import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import type { DisputeServiceDeps } from '../deps.ts';
import { disputePolicy } from '../policy.ts';
import { DISPUTE_ANNOUNCE_JOB } from '../announce.ts';
import { joinDispute, lockDispute } from './steps.ts';

/** POST /api/admin/disputes/{id}/take: the admin joins the dispute's chat (to write in it). */
export async function takeDispute(deps: DisputeServiceDeps, admin: UserRow, id: string): Promise<void> {
  await deps.platform.withTx(userActor(admin), async (ctx) => {
    const dispute = disputePolicy.authorize(admin, 'arbitrate', await lockDispute(ctx, id));
    if (await joinDispute(deps, ctx, admin, dispute)) {
      await audit(ctx.tx, { actorId: admin.id, action: 'dispute.take', targetType: 'dispute', targetId: id });
      ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
    }
  });
}
