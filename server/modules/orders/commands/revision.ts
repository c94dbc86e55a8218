import type { UserRow } from '../../users/index.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { announce, NO_PROPOSAL, runTransition, updateOrder } from './transition.ts';

/** POST /api/orders/{id}/revision: the customer sends the work back while revisions remain; delivered → in_progress. */
export function requestRevision(deps: OrderServiceDeps, user: UserRow, id: string, input: { message: string }): Promise<void> {
  return runTransition(deps, user, id, 'revision', async (ctx, order) => {
    const updated = await updateOrder(ctx, order.id, { status: 'in_progress', revisionsLeft: order.revisionsLeft - 1, ...NO_PROPOSAL });
    await announce(ctx, deps, updated, user.id, {
      message: `Заказчик запросил доработку (осталось доработок: ${updated.revisionsLeft}).\n\n${input.message}`,
      letter: { to: 'seller', event: 'revision' },
    });
  });
}
