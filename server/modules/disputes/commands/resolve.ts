import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { disputes } from '../schema.ts';
import { markLostDispute, type UserRow } from '../../users/index.ts';
import { orderNameOf } from '../../orders/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { DISPUTE_MESSAGES, DISPUTE_OUTCOME_LABELS, type resolveDisputeSchema } from '#contract/disputes';
import { splitPrice, type PriceSplit } from '#contract/money';
import { formatPercent, formatRubles } from '#contract/money-format';
import type { DisputeServiceDeps } from '../deps.ts';
import { disputePolicy } from '../policy.ts';
import { LOST_BELOW_PERCENT } from '../queries.ts';
import { DISPUTE_ANNOUNCE_JOB } from '../announce.ts';
import { disputeChatId, joinDispute, lockDispute, tellParties } from './steps.ts';

/**
 * POST /api/admin/disputes/{id}/resolve: refund, release or split by the seller's percent. The escrow settles in
 * this one transaction (OrderService.settleDispute); both parties hear of it. Under the dispute's row lock, so
 * of two admins deciding at once one decides and the other gets 409.
 */
export async function resolveDispute(deps: DisputeServiceDeps, admin: UserRow, id: string, input: z.output<typeof resolveDisputeSchema>): Promise<void> {
  await deps.platform.withTx(userActor(admin), async (ctx) => {
    const dispute = disputePolicy.authorize(admin, 'arbitrate', await lockDispute(ctx, id));
    if (dispute.status === 'resolved') throw new HttpError(409, DISPUTE_MESSAGES.alreadyResolved);
    if (dispute.status !== 'open') throw new HttpError(409, DISPUTE_MESSAGES.notOpen);
    const order = (await deps.orders.lockForDispute(ctx, dispute.orderId))!;
    const percent = input.seller_percent;
    // The same split as the admin's preview (contract splitPrice); the settlement must take the same commission.
    const split = splitPrice(order.price, percent, order.commissionBp);
    const { seller: sellerAmount, customer: customerAmount } = split;
    const toCard = split.customer > 0 && (await deps.orders.refundsToCard(ctx, order.id));
    const summary = decisionText(input.outcome, percent, split, input.comment, toCard);
    const { commission } = await deps.orders.settleDispute(ctx, order, admin.id, sellerAmount, `Спор решён арбитражем. ${summary}`);
    if (commission !== split.commission) throw new Error(`dispute ${id}: the settlement took ${commission}, the split says ${split.commission}`);
    const now = ctx.clock.now();
    await ctx.tx
      .update(disputes)
      .set({
        status: 'resolved',
        outcome: input.outcome,
        sellerPercent: percent,
        sellerAmount,
        customerAmount,
        commission,
        comment: input.comment,
        resolvedBy: admin.id,
        resolvedAt: now,
        adminId: dispute.adminId ?? admin.id,
        updatedAt: now,
      })
      .where(eq(disputes.id, id));
    // Lost: less than half of the price to the seller (ADR 034); Профессионал waits 90 days.
    if (percent < LOST_BELOW_PERCENT) await markLostDispute(ctx.tx, order.sellerId, now);
    await joinDispute(deps, ctx, admin, { ...dispute, adminId: dispute.adminId ?? admin.id });
    await deps.chat.postInTx(ctx, { chatId: await disputeChatId(ctx, id), senderId: admin.id, kind: 'system', message: `Решение по спору. ${summary}` });
    await tellParties(deps, ctx, [order.customerId, order.sellerId], { id, ...(await orderNameOf(ctx.tx, order)), event: 'resolved', decision: summary });
    await audit(ctx.tx, { actorId: admin.id, action: 'dispute.resolve', targetType: 'dispute', targetId: id, details: { outcome: input.outcome, sellerPercent: percent, sellerAmount, customerAmount, commission } });
    ctx.outbox.job(DISPUTE_ANNOUNCE_JOB, { disputeId: id });
  });
}

/**
 * The decision in words, with its amounts (the chat message, the letter, the notification's letter body): what
 * the seller's balance actually receives, the commission taken from the seller's part, what the customer gets back.
 */
function decisionText(outcome: keyof typeof DISPUTE_OUTCOME_LABELS, percent: number, split: PriceSplit, comment: string, toCard: boolean): string {
  // Paid by card in a safe deal, the customer's part goes back to the card (ADR 051).
  const back = toCard ? 'возвращаются на карту заказчика' : 'вернулись на баланс заказчика';
  const toSeller =
    split.commission > 0
      ? `исполнителю зачислено ${formatRubles(split.sellerNet)} (${formatRubles(split.seller)} за вычетом комиссии сервиса ${formatRubles(split.commission)})`
      : `исполнителю зачислено ${formatRubles(split.sellerNet)}`;
  const head =
    outcome === 'refund'
      ? `${DISPUTE_OUTCOME_LABELS.refund}: ${formatRubles(split.customer)} ${back}.`
      : outcome === 'release'
        ? `${DISPUTE_OUTCOME_LABELS.release}: ${toSeller}.`
        : `${DISPUTE_OUTCOME_LABELS.split}: исполнителю ${formatPercent(percent)} цены, заказчику ${formatPercent(100 - percent)}. Заказчику ${toCard ? 'возвращаются на карту' : 'вернулись'} ${formatRubles(split.customer)}, ${toSeller}.`;
  return comment ? `${head}\n\nКомментарий арбитра: ${comment}` : head;
}
