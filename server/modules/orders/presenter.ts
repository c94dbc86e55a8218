import type { OrderRow } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { presentFiles, type FileRow } from '../../platform/files.ts';
import { commissionOn } from '#contract/money';
import type { Order, OrderDelivery, OrderDetail, OrderParty, OrderStageInfo } from '#contract/orders';
import { actionsFor } from './policy.ts';
import { cancelWindowEnd, isCompleted, isDelivered, isInProgress } from './state.ts';
import { isAwaitingPayment, isCancelled } from '#contract/order-states';

// Rows → the orders API's documents. Pure: the service looks up what they need.

export type OrderPerson = Pick<UserRow, 'id' | 'name' | 'surname' | 'userName' | 'avatar'>;

/** An order as read for presenting: the row, its parties and its chat. */
export interface OrderRecord {
  order: OrderRow;
  customer: OrderPerson;
  seller: OrderPerson;
  chatId: string | null;
  /** The cursor value of created_at (microseconds). */
  createdKey: string;
  /** The amount the order's settlement released from the escrow, kopecks; null before it settles. */
  released?: number | null;
  /** A stage's head's number (ADR 065); null for a head or a one-stage order. */
  headNumber?: number | null;
  /** How many stages a head has; 0 for a one-stage order or a stage. */
  stageCount?: number;
  /** A stage only: why it may not be funded yet (an earlier stage waits), which takes `pay` off its actions. */
  fundingRefusal?: string | null;
}

export interface OrderTimes {
  now: Date;
  cancelWindowMinutes: number;
  autoAcceptDays: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentParty = (u: OrderPerson): OrderParty => ({ _id: u.id, name: u.name, surname: u.surname, user_name: u.userName, avatar: u.avatar });

/** The commission of an order, kopecks (ADR 025: C = round(P × bp / 10000)). */
export const commissionOf = (order: Pick<OrderRow, 'price' | 'commissionBp'>) => commissionOn(order.price, order.commissionBp);

/** A settlement's three amounts: the released price, the commission the ledger took on it, the seller's net. */
const settlementOf = (released: number, bp: number) => {
  const commission = commissionOn(released, bp);
  return { price: released, commission, net: released - commission };
};

/** Where a stage's money is (ADR 065), from its state and what its settlement released. */
function stageInfo(r: OrderRecord): OrderStageInfo | null {
  const o = r.order;
  if (!o.headId || o.stage === null) return null;
  const released = isCompleted(o) ? (r.released ?? o.price) : 0;
  const funds: OrderStageInfo['funds'] = isAwaitingPayment(o)
    ? 'unfunded'
    : isCancelled(o)
      ? o.paidAt
        ? 'refunded'
        : 'dropped'
      : isCompleted(o)
        ? released < o.price
          ? 'split'
          : 'released'
        : 'held';
  return {
    head_id: o.headId,
    head_number: r.headNumber ?? o.number,
    number: o.stage,
    title: o.stageTitle ?? '',
    deliverable: o.stageDeliverable ?? '',
    funds,
    released,
    refunded: funds === 'refunded' ? o.price : funds === 'split' ? o.price - released : 0,
  };
}

/** The steps of this viewer: none on a head (its state is its stages'), no `pay` on a stage that must wait. */
function viewerActions(r: OrderRecord, viewerId: string | null, times: OrderTimes): Order['actions'] {
  if (!viewerId || (r.stageCount ?? 0) > 0) return [];
  const actions = actionsFor(viewerId, r.order, times);
  return r.fundingRefusal ? actions.filter((a) => a !== 'pay') : actions;
}

export function presentOrder(r: OrderRecord, viewerId: string | null, times: OrderTimes): Order {
  const o = r.order;
  const role = viewerId === o.customerId ? 'customer' : viewerId === o.sellerId ? 'seller' : null;
  return {
    _id: o.id,
    number: o.number,
    title: o.title,
    status: o.status,
    customer: presentParty(r.customer),
    seller: presentParty(r.seller),
    service_id: o.serviceId,
    project_id: o.projectId,
    package: (o.package as Order['package']) ?? null,
    extras: o.extras,
    price: o.price,
    days: o.days,
    revisions_left: o.revisionsLeft,
    revisions_total: o.revisionsTotal,
    commission: commissionOf(o),
    settlement: role === 'seller' && isCompleted(o) && r.released != null ? settlementOf(r.released, o.commissionBp) : null,
    chat_id: r.chatId,
    role,
    actions: viewerActions(r, viewerId, times),
    // A delivery closes the window (ADR 039).
    cancel_window_ends_at: isInProgress(o) && !o.deliveredAt ? iso(cancelWindowEnd(o, times.cancelWindowMinutes)) : null,
    auto_accept_at: isDelivered(o) && o.deliveredAt ? new Date(o.deliveredAt.getTime() + times.autoAcceptDays * 86_400_000).toISOString() : null,
    cancel_proposal:
      o.cancelProposedBy && o.cancelProposedAt ? { by: o.cancelProposedBy, at: o.cancelProposedAt.toISOString(), reason: o.cancelProposalReason ?? '' } : null,
    cancelled_by: o.cancelledBy,
    cancel_reason: o.cancelReason,
    paid_at: iso(o.paidAt),
    deadline_at: iso(o.deadlineAt),
    delivered_at: iso(o.deliveredAt),
    completed_at: iso(o.completedAt),
    cancelled_at: iso(o.cancelledAt),
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    stage: stageInfo(r),
    stage_count: r.stageCount ?? 0,
  };
}

export interface DeliveryRow {
  id: string;
  message: string;
  files: string[];
  createdAt: Date;
}

const presentDeliveries = (deliveries: DeliveryRow[], files: ReadonlyMap<string, FileRow>): OrderDelivery[] =>
  deliveries.map((d) => ({
    _id: d.id,
    message: d.message,
    files: presentFiles(d.files, files),
    created_at: d.createdAt.toISOString(),
  }));

/** An order with its deliveries; a head with its stages, each with its own (ADR 065). */
export function presentDetail(
  order: Order,
  deliveries: DeliveryRow[],
  files: ReadonlyMap<string, FileRow>,
  stages: { order: Order; deliveries: DeliveryRow[] }[] | null = null,
): OrderDetail {
  return {
    ...order,
    deliveries: presentDeliveries(deliveries, files),
    stages: stages && stages.map((s) => ({ ...s.order, deliveries: presentDeliveries(s.deliveries, files) })),
  };
}

/** The order card of an order chat (chat.order): what the member sees above the messages. */
export function presentChatOrder(r: OrderRecord, viewerId: string, times: OrderTimes) {
  const o = presentOrder(r, viewerId, times);
  return {
    _id: o._id,
    number: o.number,
    title: o.title,
    status: o.status,
    price: o.price,
    deadline_at: o.deadline_at,
    role: o.role,
    actions: o.actions,
    revisions_left: o.revisions_left,
    cancel_proposal: o.cancel_proposal,
    auto_accept_at: o.auto_accept_at,
  };
}
