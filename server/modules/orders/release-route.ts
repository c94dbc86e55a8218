import type { TxContext } from '../../platform/tx.ts';

// Where a seller's share goes when escrow is released (ADR 053). Paid by card inside a safe deal, the money is at the
// provider and can only go out of the deal to the seller's card or wallet: the payments module takes such a release
// over (it records a payout and makes it at the provider), and the share is held for it instead of reaching the
// seller's balance. Otherwise it goes to the balance, as always. Payments installs itself here at start
// (OrderService.useReleaseRoute), as it does for refunds (refund-route.ts); orders knows no more.

/** A seller's share of a release as the payments module is handed it. */
export interface SellerRelease {
  orderId: string;
  orderNumber: number;
  sellerId: string;
  /** Kopecks the seller keeps: the released amount less the commission on it. */
  amount: number;
}

export interface ReleaseRoute {
  /** Takes the share over, in the releasing transaction: true when it is paid out of the deal (held until then). */
  take(ctx: TxContext, release: SellerRelease): Promise<boolean>;
}
