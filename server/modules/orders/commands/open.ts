import { orders, type OrderExtra, type OrderRow } from '../schema.ts';
import { openOrderChat } from '../../chat/index.ts';
import type { TxContext } from '../../../platform/tx.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { draftExpiryDue, scheduleDraftExpiry } from '../jobs.ts';
import { isDraft } from '../state.ts';
import { announce } from './transition.ts';

// An order opened (ADR 025): by the service page's checkout or an accepted bid, inside the caller's transaction.

type Deps = Pick<OrderServiceDeps, 'settings' | 'chat' | 'letters'>;

export interface OpenOrderInput {
  customerId: string;
  sellerId: string;
  serviceId?: string | null;
  projectId?: string | null;
  bidId?: string | null;
  /** The custom offer it is opened from (ADR 066): no draft, like an accepted bid's. */
  offerId?: string | null;
  title: string;
  package?: string | null;
  extras?: OrderExtra[];
  /** Kopecks, package and extras included. */
  price: number;
  days: number;
  revisions: number;
  /**
   * The work in stages (ADR 065): the order is their head, each a stage order of its own. Their prices and days
   * sum to the head's (the database checks it at commit).
   */
  stages?: readonly StageInput[] | null;
}

export interface StageInput {
  title: string;
  deliverable: string;
  /** Kopecks. */
  price: number;
  days: number;
}

/**
 * A new order awaiting payment, in the caller's transaction (the service page, an accepted bid). A service's is a
 * draft its seller hears nothing of (ADR 042): it is cancelled quietly when nobody pays it within
 * orders.draftHours. An accepted bid tells its seller itself (bid.accepted): one notification and one letter.
 */
export async function openOrder(ctx: TxContext, deps: Deps, input: OpenOrderInput): Promise<{ order: OrderRow; chatId: string | null }> {
  const opened = await insertOrder(ctx, deps, input);
  if (input.stages) await insertStages(ctx, opened.order, input.stages);
  if (isDraft(opened.order)) scheduleDraftExpiry(ctx, opened.order.id, await draftExpiryDue(ctx, deps.settings, opened.order.createdAt));
  await announce(ctx, deps, opened.order, input.customerId, {
    message: `Заказ №${opened.order.number} создан. Он ждёт оплаты: после неё исполнитель приступит к работе.`,
  });
  return opened;
}

/**
 * The order's row. An accepted bid's comes with its workspace chat (both parties as members); a service's is a
 * draft (isDraft) whose chat is opened when it is paid (markOrderPaid).
 */
async function insertOrder({ tx, clock }: TxContext, deps: Deps, input: OpenOrderInput): Promise<{ order: OrderRow; chatId: string | null }> {
  const now = clock.now();
  const [order] = await tx
    .insert(orders)
    .values({
      customerId: input.customerId,
      sellerId: input.sellerId,
      serviceId: input.serviceId ?? null,
      projectId: input.projectId ?? null,
      bidId: input.bidId ?? null,
      offerId: input.offerId ?? null,
      title: input.title,
      package: input.package ?? null,
      extras: input.extras ?? [],
      price: input.price,
      days: input.days,
      revisionsLeft: input.revisions,
      revisionsTotal: input.revisions,
      commissionBp: await deps.settings.get('orders.commissionBp', tx),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (isDraft(order!)) return { order: order!, chatId: null };
  return { order: order!, chatId: await openOrderChat(tx, order!) };
}

/**
 * The stages of a head, in the head's transaction: each a complete order (price, days, revisions and commission
 * copied), all awaiting payment; stage 1 is paid like an order today, the later ones are planned until funded. A
 * stage is no draft and has no chat of its own: its head's chat is the workspace.
 */
async function insertStages({ tx, clock }: TxContext, head: OrderRow, stages: readonly StageInput[]): Promise<void> {
  const now = clock.now();
  await tx.insert(orders).values(
    stages.map((s, i) => ({
      headId: head.id,
      stage: i + 1,
      stageTitle: s.title,
      stageDeliverable: s.deliverable,
      customerId: head.customerId,
      sellerId: head.sellerId,
      serviceId: head.serviceId,
      projectId: head.projectId,
      title: head.title,
      price: s.price,
      days: s.days,
      revisionsLeft: head.revisionsTotal,
      revisionsTotal: head.revisionsTotal,
      commissionBp: head.commissionBp,
      createdAt: now,
      updatedAt: now,
    })),
  );
}
