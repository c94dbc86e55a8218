import { eq } from 'drizzle-orm';
import { disputes } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { orderNameOf } from '../../orders/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { DISPUTE_MESSAGES } from '#contract/disputes';
import type { DisputeServiceDeps } from '../deps.ts';
import { disputePolicy } from '../policy.ts';
import { DISPUTE_ANNOUNCE_JOB } from '../announce.ts';
import { disputeChatId, lockDispute, tellParties } from './steps.ts';

/** DELETE /api/disputes/{id}: the opener withdraws it; the order returns to the state it froze (ADR 034). */
export async function cancelDispute(deps: DisputeServiceDeps, user: UserRow, id: string): Promise<void> {
  await deps.platform.withTx(userActor(user), async (ctx) => {
    const dispute = disputePolicy.authorize(user, 'cancel', await lockDispute(ctx, id));
    if (dispute.status !== 'open') throw new HttpError(409, DISPUTE_MESSAGES.notOpen);
    const order = (await deps.orders.lockForDispute(ctx, dispute.orderId))!;
    const now = ctx.clock.now();
    await deps.orders.unfreezeAfterDispute(ctx, order, user.id, now.getTime() - dispute.createdAt.getTime(), 'Спор отменён тем, кто его открыл. Работа по заказу продолжается.');
    await ctx.tx.update(disputes).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(disputes.id, id));
    await deps.chat.postInTx(ctx, { chatId: await disputeChatId(ctx, id), senderId: user.id, kind: 'system', message: 'Заявка отменена: спор закрыт без решения.' });
    await tellParties(deps, ctx, [dispute.respondentId], { id, ...(await orderNameOf(ctx.tx, order)), event: 'cancelled', decision: null });
    ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
  });
}
