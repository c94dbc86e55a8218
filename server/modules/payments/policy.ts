import type { OrderRow } from '../../db/schema/money.ts';
import { definePolicy } from '../../platform/policy.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';

// Who may do what with payments (ADR 016). An order's payment page and paying it are its customer's alone: anyone
// else (the seller and admins included) gets the 404 of an unknown order — admins see payments in the admin area.

export const paymentPolicy = definePolicy<{ pay: Pick<OrderRow, 'customerId'> }>(PAYMENT_MESSAGES.orderNotFound, {
  pay: (actor, order) => (actor !== null && actor.id === order.customerId ? 'allow' : 'hidden'),
});
