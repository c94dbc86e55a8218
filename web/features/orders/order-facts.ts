import type { Order } from '#contract/orders';
import type { PendingReview } from '#contract/reviews';
import type { Message } from '#contract/chat';
import { formatRubles } from '#contract/money-format';
import { formatDateTime } from '../../lib/dates.ts';
import { countdown } from './format.ts';
import { isDelivered, isInProgress, isOpenPaid, isSettled } from '#contract/order-states';

// What the order card and the orders list say about an order, apart from how they show it: its deadline, what the
// seller gets, a proposal to cancel, what cancelling does, and where the order leads.

type Party = { name: string; surname: string; user_name: string };

/** A party by name, or by user name when they gave none. */
export const partyName = (p: Party) => `${p.name} ${p.surname}`.trim() || p.user_name;

/** The order's chat in the messages page ("Заказы" tab). */
export const orderChatPath = (o: Pick<Order, 'chat_id'>) => (o.chat_id ? `/profile/messages?tab=orders&chat=${o.chat_id}` : '/profile/messages?tab=orders');

/** Where an order in the list leads: its chat; a draft (no chat until paid, ADR 042) its payment page, or nowhere once expired. */
export const orderRowPath = (o: Pick<Order, '_id' | 'chat_id' | 'actions'>): string | null =>
  o.chat_id ? orderChatPath(o) : o.actions.includes('pay') ? `/payments/${o._id}` : null;

/** A complaint about the order to the administration (issue 14). */
export const orderComplaintPath = (o: Pick<Order, '_id'>) => `/profile/disputes?tab=appeals&subject=order&object=${o._id}`;

/** The deadline the card counts down to: the work's while in progress, the automatic acceptance's once delivered. */
export function orderCountdown(o: Pick<Order, 'status' | 'deadline_at' | 'auto_accept_at'>): { to: string | null; prefix: string } | null {
  if (isInProgress(o)) return { to: o.deadline_at, prefix: 'до срока' };
  if (isDelivered(o)) return { to: o.auto_accept_at, prefix: 'автоприёмка через' };
  return null;
}

/**
 * What the seller gets: once settled, the ledger's amounts in rubles to the kopeck so that they add up (ADR 045);
 * before, the price less the commission, for an order not yet finished.
 */
export function sellerEarnings(
  o: Pick<Order, 'settlement' | 'role' | 'status' | 'price' | 'commission'>,
): { kind: 'settled'; text: string } | { kind: 'expected'; kopecks: number } | null {
  if (o.settlement) {
    const { price, commission, net } = o.settlement;
    return { kind: 'settled', text: `Цена заказа ${formatRubles(price)} · Комиссия сервиса ${formatRubles(commission)} · Вам ${formatRubles(net)}` };
  }
  if (o.role === 'seller' && !isSettled(o)) return { kind: 'expected', kopecks: o.price - o.commission };
  return null;
}

/** A proposal to cancel, from the reader's side: made to them or by them, with its reason. */
export function proposalText(o: Pick<Order, 'cancel_proposal' | 'role' | 'customer' | 'seller'> & Partial<Pick<Order, 'stage'>>): string | null {
  const proposal = o.cancel_proposal;
  if (!proposal) return null;
  const mine = proposal.by === (o.role === 'customer' ? o.customer._id : o.seller._id);
  const what = o.stage ? `этап ${o.stage.number}` : 'заказ';
  return `${mine ? `Вы предложили отменить ${what}` : `Вам предлагают отменить ${what}`}. Причина: ${proposal.reason}`;
}

/** What cancelling does, said before it is done: the refund, and for the seller that it counts against them. */
export function cancelNote(o: Pick<Order, 'status' | 'role'>): string | undefined {
  const paid = isOpenPaid(o);
  if (o.role === 'seller') {
    return `${paid ? 'Деньги вернутся заказчику. ' : ''}Отмена по вашей инициативе учитывается в статистике исполнителя не в вашу пользу.`;
  }
  return paid ? 'Деньги вернутся на ваш баланс.' : undefined;
}

/** The person a pending review is about. */
export const reviewTargetName = (p: Pick<PendingReview, 'target'>) => partyName(p.target);

/** The admin's count of the orders found: exact up to 10 000, the server counting no further. */
export const foundText = (total: number) => (total > 10_000 ? 'больше 10 000' : String(total));

/** The admin's view of the deadline: its date, with the time left while the work is in progress. */
export function adminDeadlineText(o: Pick<Order, 'status' | 'deadline_at'>, now: number = Date.now()): string {
  if (!o.deadline_at) return '—';
  const left = isInProgress(o) ? countdown(o.deadline_at, now) : null;
  return `${formatDateTime(o.deadline_at)}${left ? `, осталось ${left}` : ''}`;
}

/** Who a message of the order's chat is from, for the admin: its sender, or what the system posted. */
export const messageAuthor = (m: Pick<Message, 'kind' | 'sender'>) =>
  m.kind === 'text' ? `${m.sender.name} ${m.sender.surname}` : m.kind === 'delivery' ? 'Сдача работы' : 'Система';
