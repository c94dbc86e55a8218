import { eq } from 'drizzle-orm';
import { appeals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { APPEAL_MESSAGES } from '#contract/appeals';
import type { AppealServiceDeps } from '../deps.ts';
import { appealPolicy } from '../policy.ts';

/** POST /api/admin/appeals/{id}/take: a new appeal goes in_progress, with the admin who took it (audited). */
export async function takeAppeal(deps: AppealServiceDeps, adminUser: UserRow, id: string): Promise<void> {
  await deps.platform.withTx(userActor(adminUser), async (ctx) => {
    const [row] = await ctx.tx.select().from(appeals).where(eq(appeals.id, id)).for('update');
    const appeal = appealPolicy.authorize(adminUser, 'take', row);
    if (appeal.status === 'closed') throw new HttpError(409, APPEAL_MESSAGES.alreadyClosed);
    if (appeal.status !== 'new') throw new HttpError(409, APPEAL_MESSAGES.alreadyTaken);
    await ctx.tx.update(appeals).set({ status: 'in_progress', adminId: adminUser.id, takenAt: ctx.clock.now() }).where(eq(appeals.id, id));
    await audit(ctx.tx, { actorId: adminUser.id, action: 'appeal.take', targetType: 'appeal', targetId: id, details: { number: appeal.number } });
  });
}
