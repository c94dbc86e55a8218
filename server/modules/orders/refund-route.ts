import type { TxContext } from '../../platform/tx.ts';
import type { Leg } from '../ledger/index.ts';
import type { OrderRow } from './schema.ts';
import { refundLegs } from './commands/settlement.ts';

// Where an order's escrow goes back to (ADR 051). Paid by card inside a safe deal, the money is at the provider and
// can only go back to the card: the payments module takes such a refund over (it records it, makes it at the
// provider, and moves the kopecks out of escrow once the provider answers). Otherwise it goes to the customer's
// balance, as always. The payments module installs itself here (OrderService.useRefundRoute); orders knows no more.

/** An escrow refund as the payments module is handed it. */
export interface EscrowRefund {
  orderId: string;
  orderNumber: number;
  customerId: string;
  /** Kopecks back to the customer. */
  amount: number;
  /** The order's price and commission: what the seller keeps of the deal. */
  price: number;
  commissionBp: number;
  /** The decision's own key (`settle:<order>`, `settle:<order>:refund`): one refund per decision. */
  key: string;
  description: string;
}

export interface RefundRoute {
  /** Whether this order's refund would go back to a card (the wording of a decision before it is made). */
  toCard(ctx: TxContext, orderId: string): Promise<boolean>;
  /** Takes the refund over, in the deciding transaction: true when it goes to the card (escrow keeps it until then). */
  take(ctx: TxContext, refund: EscrowRefund): Promise<boolean>;
}

/**
 * The refund of `amount` kopecks of the order's escrow: the ledger legs to post now (to the balance), or none when
 * the route took it to the card. `toCard` says which, for the messages.
 */
export async function routeRefund(
  ctx: TxContext,
  route: RefundRoute | undefined,
  order: OrderRow,
  amount: number,
  key: string,
  description: string,
): Promise<{ toCard: boolean; legs: Leg[] }> {
  const refund = { orderId: order.id, orderNumber: order.number, customerId: order.customerId, amount, price: order.price, commissionBp: order.commissionBp, key, description };
  if (route && (await route.take(ctx, refund))) return { toCard: true, legs: [] };
  return { toCard: false, legs: refundLegs(order, amount) };
}
