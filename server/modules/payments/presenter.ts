import type { PaymentRow, WithdrawalRow } from './schema.ts';
import type { CryptoMethod, FinanceDirection, FinanceEntry, Payment, Quote, Withdrawal } from '#contract/payments';
import { orderLabel } from '#contract/order-name';
import type { NamedOrder } from '../orders/index.ts';

/** A payment's or a finance line's order: a stage named by its head's number and its own (ADR 065). */
const presentOrder = (o: Pick<NamedOrder, 'id' | 'number' | 'title' | 'stage'>) => ({
  _id: o.id,
  number: o.number,
  title: o.title,
  stage: o.stage ?? null,
  label: orderLabel(o),
});

export interface PaymentRecord {
  payment: PaymentRow;
  /** Null for a top-up of the balance (ADR 062). */
  order: Pick<NamedOrder, 'id' | 'number' | 'title' | 'stage'> | null;
  customer?: { id: string; name: string; email: string };
  createdKey: string;
  /** Its refunds to the card (ADR 051), summed; the latest one's state. */
  refund?: Payment['refund'];
}

/** A payment as the lists show it: a pending quote past its expiry is shown expired (it can no longer be paid). */
export function presentPayment(r: PaymentRecord, now: Date): Payment {
  const p = r.payment;
  const lapsed = p.status === 'pending' && p.quoteExpiresAt !== null && p.quoteExpiresAt <= now;
  return {
    _id: p.id,
    order: r.order && presentOrder(r.order),
    ...(r.customer ? { customer: { _id: r.customer.id, name: r.customer.name, email: r.customer.email } } : {}),
    method: p.method,
    provider: p.provider,
    ...(r.customer ? { provider_ref: p.providerRef } : {}),
    status: lapsed ? 'expired' : p.status,
    amount: p.amount,
    fee: p.fee,
    currency: p.currency,
    currency_amount: p.currencyAmount,
    failure_reason: p.failureReason,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt?.toISOString() ?? null,
    refund: r.refund ?? null,
  };
}

/** A crypto quote: the pending payment with its rate, amount and expiry. */
export function presentQuote(p: PaymentRow): Quote {
  return {
    _id: p.id,
    // Quotes are made for orders only.
    order_id: p.orderId!,
    method: p.method as CryptoMethod,
    currency: p.currency as 'USDT' | 'BTC',
    amount: p.amount,
    fee: p.fee,
    currency_amount: p.currencyAmount,
    rate: Number(p.rate),
    quote_expires_at: p.quoteExpiresAt!.toISOString(),
  };
}

/**
 * A card is stored as its mask only (`220220******1234`, ADR 050) and shown as «220220 •• 1234»; a wallet's number
 * and a crypto address in full.
 */
export const maskDestination = (method: WithdrawalRow['method'], destination: string) =>
  method === 'card' ? `${destination.slice(0, 6)} •• ${destination.slice(-4)}` : destination;

export function presentWithdrawal(w: WithdrawalRow, user?: { id: string; name: string; email: string }): Withdrawal {
  return {
    _id: w.id,
    amount: w.amount,
    method: w.method,
    destination: maskDestination(w.method, w.destination),
    card_type: w.cardType,
    status: w.status,
    reject_reason: w.rejectReason,
    created_at: w.createdAt.toISOString(),
    reviewed_at: w.reviewedAt?.toISOString() ?? null,
    order_number: w.orderNumber,
    ...(user ? { user: { _id: user.id, name: user.name, email: user.email } } : {}),
  };
}

/** One ledger entry of a person's available or held balance, with what the finance page needs to word it. */
export interface FinanceEntryRecord {
  seq: number;
  amount: number;
  balanceAfter: number;
  createdAt: Date;
  account: string;
  kind: string;
  order: NamedOrder | null;
  /** The escrow's debit of the same transfer (the amount a settlement released), or null. */
  released: number | null;
  /** Whether the entry is a referral reward (it follows its referral_expense clearing debit). */
  reward: boolean;
}

/**
 * A finance line for `userId` (ADR 045). Its direction follows the person's money: a credit of the available
 * balance is in, a debit out; the withdrawal-hold balance only holds what already left the available one, so its
 * lines are neither. The seller's payment for their own order carries the price, the commission and the net.
 */
export function presentFinanceEntry(r: FinanceEntryRecord, userId: string): FinanceEntry {
  const account = r.account as FinanceEntry['account'];
  const direction: FinanceDirection = account === 'withdrawal_hold' ? 'held' : r.amount > 0 ? 'in' : 'out';
  const reward = r.kind === 'release' && r.reward;
  const sellerPay = r.kind === 'release' && !reward && account === 'available' && r.order?.sellerId === userId && r.released !== null;
  return {
    seq: r.seq,
    kind: reward ? 'referral' : (r.kind as FinanceEntry['kind']),
    account,
    amount: r.amount,
    balance_after: r.balanceAfter,
    created_at: r.createdAt.toISOString(),
    order: r.order?.id ? presentOrder(r.order) : null,
    direction,
    settlement: sellerPay ? { price: r.released!, commission: r.released! - r.amount, net: r.amount } : null,
  };
}
