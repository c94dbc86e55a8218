import type { PaymentRow } from '../schema.ts';
import type { Recipient } from '../../../platform/letters/index.ts';
import { recipientOf } from '../recipients.ts';
import { HttpError } from '../../../lib/http.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { orderNameOf, type OrderToPay } from '../../orders/index.ts';
import { postTransfer } from '../../ledger/index.ts';
import { formatCurrency, formatRubles } from '#contract/money-format';
import { orderItems, type OrderPackage } from '#contract/orders';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { paymentMethods } from '../pricing.ts';

// The steps a payment that arrived takes, from the balance or through a provider: the order into escrow and the
// customer's receipt.

/**
 * available:customer → escrow:order (`escrow:<order>`: once, whatever races), in the caller's transaction, after the
 * order's own steps: the ledger comes last, as its entries take the chain's one lock until the commit (ADR 025).
 */
export async function escrowTransfer(ctx: TxContext, order: OrderToPay, customerId: string): Promise<void> {
  const posted = await postTransfer(ctx.tx, {
    kind: 'escrow',
    key: `escrow:${order.id}`,
    orderId: order.id,
    description: `Оплата заказа №${order.number}`,
    legs: [
      { account: { kind: 'available', userId: customerId }, amount: -order.price },
      { account: { kind: 'escrow', orderId: order.id }, amount: order.price },
    ],
  });
  if (!posted) throw new HttpError(409, PAYMENT_MESSAGES.notAwaitingPayment);
}

/**
 * The customer's receipt letter of a payment that arrived (ADR 042), in its transaction: what the order
 * consists of, the amount and the fee in the payment's currency, the method; or that it went to the balance.
 * `payer` is the customer when the caller has them at hand (a payment from the balance is their own request).
 */
export async function receipt(deps: PaymentContext, ctx: TxContext, order: OrderToPay, payment: PaymentRow, credited: boolean, payer?: Recipient): Promise<void> {
  const customer = payer ?? (await recipientOf(ctx.tx, payment.customerId));
  if (!customer) return;
  const method = await methodTitle(deps, payment);
  // A stage's receipt says which stage of which order was paid (ADR 065).
  const name = await orderNameOf(ctx.tx, order);
  deps.letters.notify(ctx.outbox, customer, 'payment.receipt', {
    ...name,
    lines: orderItems({ package: order.package as OrderPackage | null, extras: order.extras, price: order.price }).map((i) => `${i.label} — ${formatRubles(i.price)}`),
    amount: formatCurrency(payment.currencyAmount, payment.currency),
    method,
    fee: payment.fee > 0 ? formatRubles(payment.fee) : null,
    paidAt: moscowTime(ctx.clock.now()),
    credited,
    path: `/payments/${order.id}`,
  });
}

/**
 * The customer's receipt of a top-up that arrived (ADR 062), in its transaction: what reached the balance (kopecks),
 * what was paid for it (minor units of the payment's currency), the method; the same letter an order's payment gets, saying it paid no order.
 */
export async function topUpReceipt(deps: PaymentContext, ctx: TxContext, payment: PaymentRow, credited: number, paid: number): Promise<void> {
  const customer = await recipientOf(ctx.tx, payment.customerId);
  if (!customer) return;
  deps.letters.notify(ctx.outbox, customer, 'payment.topUpReceipt', {
    credited: formatRubles(credited),
    amount: formatCurrency(paid, payment.currency),
    method: await methodTitle(deps, payment),
    fee: payment.fee > 0 ? formatRubles(payment.fee) : null,
    paidAt: moscowTime(ctx.clock.now()),
    path: '/profile/finance',
  });
}

const methodTitle = async (deps: PaymentContext, payment: PaymentRow) =>
  payment.method === 'balance' ? 'Баланс' : ((await paymentMethods(deps))[payment.method]?.title ?? payment.method);

// Made once: a formatter with a time zone costs more to build than the rest of the receipt (2.6 % of a payment's CPU).
const moscow = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Moscow' });
const moscowTime = (at: Date) => moscow.format(at);
