import { orderDeliveries } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { autoAcceptDue, scheduleAutoAccept } from '../jobs.ts';
import { orderPolicy } from '../policy.ts';
import { orderRecord } from '../queries.ts';
import { announce, NO_PROPOSAL, runTransition, updateOrder } from './transition.ts';

/** POST /api/orders/{id}/deliver: the seller hands over a message and files; in_progress → delivered. */
export async function deliverOrder(deps: OrderServiceDeps, user: UserRow, id: string, input: { message: string; files: string[] }): Promise<void> {
  // Checked before the transaction (the chat reads through the pool): the seller's own uploads, as in chat.send.
  orderPolicy.authorize(user, 'deliver', await orderRecord(deps, id));
  const files = await deps.chat.ownFilesOf(user.id, input.files);
  await runTransition(deps, user, id, 'deliver', async (ctx, order) => {
    const now = ctx.clock.now();
    const updated = await updateOrder(ctx, order.id, { status: 'delivered', deliveredAt: now, ...NO_PROPOSAL });
    await ctx.tx.insert(orderDeliveries).values({ orderId: order.id, message: input.message, files, createdAt: now });
    // A revision in between makes it a no-op, and an early run after a later delivery moves itself (autoAccept).
    scheduleAutoAccept(ctx, order.id, await autoAcceptDue(ctx, deps.settings, now));
    await announce(ctx, deps, updated, user.id, {
      kind: 'delivery',
      message: `Работа сдана.\n\n${input.message}`,
      files,
      letter: { to: 'customer', event: 'delivered' },
    });
  });
}
