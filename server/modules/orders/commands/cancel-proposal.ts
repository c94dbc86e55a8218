import type { UserRow } from '../../users/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { cancelNow } from './cancel.ts';
import { actorWord, announce, jobWord, NO_PROPOSAL, otherSide, runTransition, updateOrder } from './transition.ts';

// A mutual cancellation of a paid order: one party proposes, the other accepts (cancelled, refunded) or declines.

/** POST /api/orders/{id}/cancel-proposal: either party proposes to cancel a paid order; the other answers. */
export function proposeCancel(deps: OrderServiceDeps, user: UserRow, id: string, input: { reason: string }): Promise<void> {
  return runTransition(deps, user, id, 'propose_cancel', async (ctx, order) => {
    const updated = await updateOrder(ctx, order.id, { cancelProposedBy: user.id, cancelProposedAt: ctx.clock.now(), cancelProposalReason: input.reason });
    await announce(ctx, deps, updated, user.id, {
      message: `${actorWord(order, user.id)} предлагает отменить ${jobWord(order)}.\n\nПричина: ${input.reason}`,
      letter: { to: otherSide(order, user.id), event: 'cancelProposed', reason: input.reason },
    });
  });
}

/** POST /api/orders/{id}/cancel-proposal/answer: the other party accepts (cancelled, refunded) or declines. */
export function answerCancel(deps: OrderServiceDeps, user: UserRow, id: string, input: { accept: boolean }): Promise<void> {
  return runTransition(deps, user, id, 'answer_cancel', async (ctx, order) => {
    const who = actorWord(order, user.id);
    if (input.accept) {
      await cancelNow(ctx, deps, order, order.cancelProposedBy!, order.cancelProposalReason, `${who} согласился отменить ${jobWord(order)}. ${jobWord(order, true)} отменён по взаимному согласию.`);
      return;
    }
    const updated = await updateOrder(ctx, order.id, NO_PROPOSAL);
    await announce(ctx, deps, updated, user.id, {
      message: `${who} отклонил предложение отменить ${jobWord(order)}. Работа продолжается.`,
      letter: { to: otherSide(order, user.id), event: 'cancelDeclined' },
    });
  });
}
