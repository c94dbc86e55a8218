// The money loop's shared vocabulary (ADR 025): the states of bids, orders, payments and withdrawals, and the
// ledger's messages. Zod-free, so pages may import it. Each domain's schemas live in its own contract file
// (bids.ts, orders.ts, payments.ts) and its endpoints in contract/endpoints/<domain>.ts.

export const BID_STATUSES = ['active', 'accepted', 'rejected', 'withdrawn'] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

export const ORDER_STATUSES = ['awaiting_payment', 'in_progress', 'delivered', 'completed', 'cancelled', 'disputed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_METHODS = ['balance', 'card', 'usdt', 'btc'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
// credited: a provider's money arrived after the order had been paid otherwise; it stays on the customer's balance.
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'expired', 'credited'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const WITHDRAWAL_METHODS = ['card', 'usdt', 'btc'] as const;
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const LEDGER_MESSAGES = {
  insufficientFunds: 'Недостаточно средств на балансе',
} as const;
