import type { PaymentRow, WithdrawalRow } from '../../db/schema/money.ts';
import type { Payment, Withdrawal } from '#contract/payments';

export interface PaymentRecord {
  payment: PaymentRow;
  order: { id: string; number: number; title: string };
  customer?: { id: string; name: string; email: string };
  createdKey: string;
}

/** A payment as the lists show it: a pending quote past its expiry is shown expired (it can no longer be paid). */
export function presentPayment(r: PaymentRecord, now: Date): Payment {
  const p = r.payment;
  const lapsed = p.status === 'pending' && p.quoteExpiresAt !== null && p.quoteExpiresAt <= now;
  return {
    _id: p.id,
    order: { _id: r.order.id, number: r.order.number, title: r.order.title },
    ...(r.customer ? { customer: { _id: r.customer.id, name: r.customer.name, email: r.customer.email } } : {}),
    method: p.method,
    provider: p.provider,
    status: lapsed ? 'expired' : p.status,
    amount: p.amount,
    fee: p.fee,
    currency: p.currency,
    currency_amount: p.currencyAmount,
    failure_reason: p.failureReason,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt?.toISOString() ?? null,
  };
}

/** A card number shows its last four digits only; a wallet address in full (it is public anyway). */
export const maskDestination = (method: WithdrawalRow['method'], destination: string) =>
  method === 'card' ? `•••• ${destination.slice(-4)}` : destination;

export function presentWithdrawal(w: WithdrawalRow, user?: { id: string; name: string; email: string }, { full = false } = {}): Withdrawal {
  return {
    _id: w.id,
    amount: w.amount,
    method: w.method,
    destination: full ? w.destination : maskDestination(w.method, w.destination),
    status: w.status,
    reject_reason: w.rejectReason,
    created_at: w.createdAt.toISOString(),
    reviewed_at: w.reviewedAt?.toISOString() ?? null,
    ...(user ? { user: { _id: user.id, name: user.name, email: user.email } } : {}),
  };
}
