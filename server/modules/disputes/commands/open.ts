import type { z } from 'zod';
import { disputes } from '../schema.ts';
import { isDisputed, isOpenPaid, orderNameOf } from '../../orders/index.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { DISPUTE_MESSAGES, DISPUTE_REASON_LABELS, DISPUTE_REASONS_BY_SIDE, DISPUTES_PER_DAY, type createDisputeSchema } from '#contract/disputes';
import { DAY_MS, type DisputeServiceDeps } from '../deps.ts';
import { disputeOrderPolicy } from '../policy.ts';
import { DISPUTE_ANNOUNCE_JOB } from '../announce.ts';
import { tellParties } from './steps.ts';

/** POST /api/disputes/: a party opens a dispute; the order freezes, the dispute's chat opens with both parties. Answers its id. */
export async function openDispute(deps: DisputeServiceDeps, user: UserRow, input: z.output<typeof createDisputeSchema>): Promise<string> {
  // Checked before the transaction (they read through the pool): the caller's own uploads, as in chat.send.
  const files = await deps.chat.ownFilesOf(user.id, input.files);
  const { allowed } = await deps.limiter.hit(`disputes:open:${user.id}`, DISPUTES_PER_DAY, DAY_MS);
  if (!allowed) throw new HttpError(429, DISPUTE_MESSAGES.tooMany);

  return deps.platform.withTx(userActor(user), async (ctx) => {
    const order = disputeOrderPolicy.authorize(user, 'open', await deps.orders.lockForDispute(ctx, input.order_id));
    if (isDisputed(order)) throw new HttpError(409, DISPUTE_MESSAGES.alreadyOpen);
    if (!isOpenPaid(order)) throw new HttpError(409, DISPUTE_MESSAGES.notOpenable);
    const side = user.id === order.customerId ? 'customer' : 'seller';
    if (!DISPUTE_REASONS_BY_SIDE[side].includes(input.reason)) {
      throw badRequest(DISPUTE_MESSAGES.reasonOfOtherSide, { reason: [DISPUTE_MESSAGES.reasonOfOtherSide] });
    }
    const respondentId = side === 'customer' ? order.sellerId : order.customerId;
    // No verb that guesses a gender (ADR 046): the role stands in the genitive, which is known.
    const whose = side === 'customer' ? 'заказчика' : 'исполнителя';
    await deps.orders.freezeForDispute(ctx, order, user.id, `Открыт спор по заказу по заявке ${whose}. Заказ остановлен до решения арбитража.`);
    const [dispute] = await ctx.tx
      .insert(disputes)
      .values({ orderId: order.id, openedBy: user.id, respondentId, reason: input.reason, description: input.description, files, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() })
      .returning();
    // Without the order's id: that names the order's own chat wherever a chat is looked up by order.
    const chat = await deps.chat.openChat({ kind: 'dispute', memberIds: [user.id, respondentId], disputeId: dispute!.id }, ctx.tx);
    await deps.chat.postInTx(ctx, {
      chatId: chat.id,
      senderId: user.id,
      kind: 'system',
      message: `Спор по заказу №${order.number} «${order.title}».\n\nПричина: ${DISPUTE_REASON_LABELS[input.reason]}\n\n${input.description}`,
      files,
    });
    await tellParties(deps, ctx, [respondentId], { id: dispute!.id, ...(await orderNameOf(ctx.tx, order)), event: 'opened', decision: null });
    ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: dispute!.id });
    return dispute!.id;
  });
}
