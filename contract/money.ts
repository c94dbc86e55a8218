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

/** `yoomoney`: a ЮMoney wallet, paid through ЮKassa's payouts like a card (ADR 050). */
export const WITHDRAWAL_METHODS = ['card', 'yoomoney', 'usdt', 'btc'] as const;
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];
/**
 * `sending`: approved and handed to a provider (a crypto payout); `returned`: the provider could not pay it out;
 * `awaiting_details`: a seller's share paid out of a safe deal (ADR 053) that waits for the card or wallet to send it to.
 */
export const WITHDRAWAL_STATUSES = ['pending', 'sending', 'approved', 'rejected', 'returned', 'awaiting_details'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const LEDGER_MESSAGES = {
  insufficientFunds: 'Недостаточно средств на балансе',
} as const;

/** The commission on a release of `amount` kopecks at `bp` basis points (ADR 025: C = round(P × bp / 10 000)). */
export const commissionOn = (amount: number, bp: number): number => Math.round((amount * bp) / 10_000);

/** Where the escrow of one order goes, kopecks: customer + sellerNet + commission = the price, exactly. */
export interface PriceSplit {
  /** Back to the customer's balance. */
  customer: number;
  /** The seller's part before the commission (the released amount). */
  seller: number;
  /** The platform's commission on the seller's part (referral rewards come out of it, not out of the seller's). */
  commission: number;
  /** What the seller's balance receives. */
  sellerNet: number;
}

/**
 * The split of a price by the seller's percent (0–100), as the ledger settles it (ADR 034): the seller's part is
 * rounded to the kopeck, the customer gets the rest, the commission is taken from the seller's part. The admin's
 * preview and the server's settlement both call this, so they cannot disagree.
 */
export function splitPrice(price: number, sellerPercent: number, commissionBp: number): PriceSplit {
  const seller = Math.round((price * sellerPercent) / 100);
  const commission = commissionOn(seller, commissionBp);
  return { customer: price - seller, seller, commission, sellerNet: seller - commission };
}
