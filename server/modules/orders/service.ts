import type { z } from 'zod';
import type { OrderRow } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import type { TxContext } from '../../platform/tx.ts';
import type { OrderView } from '../chat/index.ts';
import { commissionOn } from '#contract/money';
import type { adminOrdersQuerySchema, createOrderSchema, Order, OrderDetail, ordersQuerySchema } from '#contract/orders';
import { acceptOrder, autoAcceptOrder } from './commands/accept.ts';
import { cancelAtDealEnd, cancelOrder } from './commands/cancel.ts';
import { answerCancel, proposeCancel } from './commands/cancel-proposal.ts';
import { createOrder } from './commands/create.ts';
import { deliverOrder } from './commands/deliver.ts';
import { freezeForDispute, settleDispute, unfreezeAfterDispute } from './commands/dispute.ts';
import { expireDraft } from './commands/expire-draft.ts';
import { markOrderPaid } from './commands/mark-paid.ts';
import { openOrder, type OpenOrderInput } from './commands/open.ts';
import { requestRevision } from './commands/revision.ts';
import { lockOrder } from './commands/transition.ts';
import type { OrderServiceDeps } from './deps.ts';
import type { RefundRoute } from './refund-route.ts';
import type { ReleaseRoute } from './release-route.ts';
import { adminGetOrder, adminListOrders, describeOrders, getOrder, listOrders } from './queries.ts';

export type { OrderServiceDeps } from './deps.ts';
export { AUTO_ACCEPT_JOB } from './jobs.ts';

type Page<T> = { result: T[]; total: number; next: string | null };

/**
 * Orders: made from a service or an accepted bid, paid into escrow, delivered, accepted or cancelled (ADR 025).
 * The face the routes and other modules call; each step is a file of commands/, the reads are queries.ts.
 */
export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {}

  // The interface of other modules (bids, payments), in the caller's transaction.

  /** A new order awaiting payment (the service page, an accepted bid); commands/open.ts. */
  open(ctx: TxContext, input: OpenOrderInput) {
    return openOrder(ctx, this.deps, input);
  }

  /** awaiting_payment → in_progress, in the payment's transaction; 409 when it is not awaiting payment. */
  markPaid(ctx: TxContext, orderId: string): Promise<OrderRow> {
    return markOrderPaid(ctx, this.deps, orderId);
  }

  /** The payments module takes refunds of card payments in a safe deal back to the card (ADR 051). */
  useRefundRoute(route: RefundRoute): void {
    this.deps.refundRoute = route;
  }

  /** The payments module pays a seller's share of an order paid in a safe deal out of that deal (ADR 053). */
  useReleaseRoute(route: ReleaseRoute): void {
    this.deps.releaseRoute = route;
  }

  /** Whether this order's escrow would go back to a card rather than to the balance. */
  refundsToCard(ctx: TxContext, orderId: string): Promise<boolean> {
    return this.deps.refundRoute?.toCard(ctx, orderId) ?? Promise.resolve(false);
  }

  // Reads

  get(user: UserRow, id: string): Promise<OrderDetail> {
    return getOrder(this.deps, user, id);
  }

  adminGet(admin: UserRow, id: string): Promise<OrderDetail> {
    return adminGetOrder(this.deps, admin, id);
  }

  list(user: UserRow, query: z.output<typeof ordersQuerySchema>): Promise<Page<Order>> {
    return listOrders(this.deps, user, query);
  }

  adminList(admin: UserRow, query: z.output<typeof adminOrdersQuerySchema>): Promise<Page<Order>> {
    return adminListOrders(this.deps, admin, query);
  }

  describe(orderIds: string[]): Promise<Map<string, OrderView>> {
    return describeOrders(this.deps, orderIds);
  }

  // Commands: each answers the order after it.

  async create(user: UserRow, input: z.output<typeof createOrderSchema>): Promise<OrderDetail> {
    return this.get(user, await createOrder(this.deps, user, input));
  }

  async deliver(user: UserRow, id: string, input: { message: string; files: string[] }): Promise<OrderDetail> {
    await deliverOrder(this.deps, user, id, input);
    return this.get(user, id);
  }

  async revision(user: UserRow, id: string, input: { message: string }): Promise<OrderDetail> {
    await requestRevision(this.deps, user, id, input);
    return this.get(user, id);
  }

  async accept(user: UserRow, id: string): Promise<OrderDetail> {
    await acceptOrder(this.deps, user, id);
    return this.get(user, id);
  }

  async cancel(user: UserRow, id: string, input: { reason: string | null }): Promise<OrderDetail> {
    await cancelOrder(this.deps, user, id, input);
    return this.get(user, id);
  }

  async proposeCancel(user: UserRow, id: string, input: { reason: string }): Promise<OrderDetail> {
    await proposeCancel(this.deps, user, id, input);
    return this.get(user, id);
  }

  async answerCancel(user: UserRow, id: string, input: { accept: boolean }): Promise<OrderDetail> {
    await answerCancel(this.deps, user, id, input);
    return this.get(user, id);
  }

  // Jobs

  /** The auto-accept job (also run by tests): commands/accept.ts. */
  autoAccept(ctx: TxContext, orderId: string): Promise<void> {
    return autoAcceptOrder(ctx, this.deps, orderId);
  }

  expireDraft(ctx: TxContext, orderId: string): Promise<void> {
    return expireDraft(ctx, this.deps, orderId);
  }

  /** A card payment's safe deal ended before the order (ADR 058): commands/cancel.ts. */
  cancelAtDealEnd(ctx: TxContext, orderId: string): Promise<boolean> {
    return cancelAtDealEnd(ctx, this.deps, orderId);
  }

  // Disputes (ADR 034): the disputes module's steps on an order, in its transaction; commands/dispute.ts.

  /** The order locked for a dispute's command (null when it does not exist). */
  lockForDispute(ctx: TxContext, orderId: string): Promise<OrderRow | null> {
    return lockOrder(ctx, orderId);
  }

  freezeForDispute(ctx: TxContext, order: OrderRow, actorId: string, text: string): Promise<OrderRow> {
    return freezeForDispute(ctx, this.deps, order, actorId, text);
  }

  unfreezeAfterDispute(ctx: TxContext, order: OrderRow, actorId: string, pausedMs: number, text: string): Promise<OrderRow> {
    return unfreezeAfterDispute(ctx, this.deps, order, actorId, pausedMs, text);
  }

  settleDispute(ctx: TxContext, order: OrderRow, actorId: string, sellerAmount: number, text: string): Promise<{ commission: number; toCard: boolean }> {
    return settleDispute(ctx, this.deps, order, actorId, sellerAmount, text);
  }

  /** The commission a release of `amount` would take (the decision form's preview, ADR 034). */
  static commissionOn(order: Pick<OrderRow, 'commissionBp'>, amount: number): number {
    return commissionOn(amount, order.commissionBp);
  }
}
