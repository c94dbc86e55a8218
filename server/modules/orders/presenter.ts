import type { OrderRow } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { presentFiles, type FileRow } from '../../platform/files.ts';
import { commissionOn } from '#contract/money';
import type { Order, OrderDelivery, OrderDetail, OrderParty } from '#contract/orders';
import { actionsFor } from './policy.ts';
import { cancelWindowEnd, isCompleted, isDelivered, isInProgress } from './state.ts';

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
    actions: viewerId ? actionsFor(viewerId, o, times) : [],
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
  };
}

export interface DeliveryRow {
  id: string;
  message: string;
  files: string[];
  createdAt: Date;
}

export function presentDetail(order: Order, deliveries: DeliveryRow[], files: ReadonlyMap<string, FileRow>): OrderDetail {
  const list: OrderDelivery[] = deliveries.map((d) => ({
    _id: d.id,
    message: d.message,
    files: presentFiles(d.files, files),
    created_at: d.createdAt.toISOString(),
  }));
  return { ...order, deliveries: list };
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
