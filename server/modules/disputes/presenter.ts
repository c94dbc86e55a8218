import type { DisputeRow } from './schema.ts';
import type { OrderRow } from '../orders/index.ts';
import type { UserRow } from '../users/index.ts';
import { presentFiles, type FileRow } from '../../platform/files.ts';
import type { AdminDisputeRow, DisputeDecision } from '#contract/disputes';
import type { OrderParty } from '#contract/orders';

// Rows → the disputes API's documents. Pure: the service looks up what they need.

export type DisputePerson = Pick<UserRow, 'id' | 'name' | 'surname' | 'userName' | 'avatar'>;

/** A dispute as read for presenting: the row, its order, the order's parties, the arbiter and both chats. */
export interface DisputeRecord {
  dispute: DisputeRow;
  order: Pick<OrderRow, 'id' | 'number' | 'title' | 'price' | 'status' | 'customerId' | 'sellerId' | 'commissionBp' | 'stage' | 'stageTitle'>;
  customer: DisputePerson;
  seller: DisputePerson;
  admin: DisputePerson | null;
  chatId: string | null;
  orderChatId: string | null;
}

const party = (u: DisputePerson): OrderParty => ({ _id: u.id, name: u.name, surname: u.surname, user_name: u.userName, avatar: u.avatar });

/** Open with no decision for `flagDays` days (the admin queue's badge). */
export const isFlagged = (d: Pick<DisputeRow, 'status' | 'createdAt'>, now: Date, flagDays: number) =>
  d.status === 'open' && now.getTime() - d.createdAt.getTime() >= flagDays * 86_400_000;

function decisionOf(d: DisputeRow): DisputeDecision | null {
  if (d.status !== 'resolved' || !d.outcome || !d.resolvedAt) return null;
  const sellerAmount = d.sellerAmount ?? 0;
  const commission = d.commission ?? 0;
  return {
    outcome: d.outcome,
    seller_percent: d.sellerPercent ?? 0,
    customer_amount: d.customerAmount ?? 0,
    seller_amount: sellerAmount,
    seller_net: sellerAmount - commission,
    commission,
    comment: d.comment ?? '',
    resolved_at: d.resolvedAt.toISOString(),
  };
}

/** The disputed order's title; a stage's names the stage too (ADR 065: a dispute is about one stage). */
export const disputedTitle = (o: Pick<OrderRow, 'title' | 'stage' | 'stageTitle'>) => (o.stage ? `${o.title} · этап ${o.stage} «${o.stageTitle ?? ''}»` : o.title);

/** Everything but the chat, as `viewerId` sees it. */
export function presentDispute(r: DisputeRecord, viewerId: string, files: ReadonlyMap<string, FileRow>, now: Date, flagDays: number): Omit<AdminDisputeRow, 'chat' | 'unseen_messages'> {
  const d = r.dispute;
  const byId = (id: string) => (id === r.customer.id ? r.customer : r.seller);
  return {
    _id: d.id,
    order: {
      _id: r.order.id,
      number: r.order.number,
      title: disputedTitle(r.order),
      price: r.order.price,
      commission_bp: r.order.commissionBp,
      status: r.order.status,
      customer: party(r.customer),
      seller: party(r.seller),
      chat_id: r.orderChatId,
    },
    reason: d.reason,
    description: d.description,
    files: presentFiles(d.files, files),
    status: d.status,
    opened_by: party(byId(d.openedBy)),
    respondent: party(byId(d.respondentId)),
    admin: r.admin ? party(r.admin) : null,
    role: viewerId === d.openedBy ? 'opener' : viewerId === d.respondentId ? 'respondent' : null,
    can_cancel: viewerId === d.openedBy && d.status === 'open',
    flagged: isFlagged(d, now, flagDays),
    decision: decisionOf(d),
    cancelled_at: d.cancelledAt ? d.cancelledAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
  };
}
