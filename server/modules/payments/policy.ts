import type { OrderRow } from '../orders/index.ts';
import type { UserRow } from '../users/index.ts';
import type { PaymentRow } from './schema.ts';
import { definePolicy } from '../../platform/policy.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';

// Who may do what with payments (ADR 016). An order's payment page and paying it are its customer's alone: anyone
// else (the seller and admins included) gets the 404 of an unknown order — admins see payments in the admin area.

export const paymentPolicy = definePolicy<{ pay: Pick<OrderRow, 'customerId'> }>(PAYMENT_MESSAGES.orderNotFound, {
  pay: (actor, order) => (actor !== null && actor.id === order.customerId ? 'allow' : 'hidden'),
});

/** A crypto quote is paid by the customer it was made for; to anyone else it is an unknown payment. */
export const quotePolicy = definePolicy<{ use: Pick<PaymentRow, 'customerId'> }>(PAYMENT_MESSAGES.paymentNotFound, {
  use: (actor, quote) => (actor !== null && actor.id === quote.customerId ? 'allow' : 'hidden'),
});

/** A balance is topped up by its owner alone (ADR 062): the top-up is made for the caller, never for another person. */
export const topUpPolicy = definePolicy<{ topUp: Pick<UserRow, 'id'> }>(PAYMENT_MESSAGES.paymentNotFound, {
  topUp: (actor, owner) => (actor !== null && actor.id === owner.id ? 'allow' : 'hidden'),
});
