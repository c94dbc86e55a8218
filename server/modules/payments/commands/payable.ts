import type { UserRow } from '../../users/index.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import type { OrderToPay } from '../../orders/index.ts';
import type { PaymentRate } from '#contract/payments';
import { paymentPolicy } from '../policy.ts';
import { limitProblem } from '../pricing.ts';

/**
 * The checks every way of paying makes, in this order: the customer's own order (404 otherwise), one the orders'
 * state table lets them pay (409), within the method's limits (400).
 */
export function payable(user: UserRow, order: OrderToPay | null, rate?: PaymentRate): OrderToPay {
  const found = paymentPolicy.authorize(user, 'pay', order);
  if (found.payRefusal) throw new HttpError(409, found.payRefusal);
  if (rate) {
    const problem = limitProblem(found.price, rate);
    if (problem) throw badRequest(problem);
  }
  return found;
}
