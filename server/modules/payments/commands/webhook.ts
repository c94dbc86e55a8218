import { and, eq } from 'drizzle-orm';
import { payments, webhookEvents, type PaymentRow } from '../schema.ts';
import { HttpError, badRequest, notFound } from '../../../lib/http.ts';
import { systemActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { postTransfer } from '../../ledger/index.ts';
import { PAYMENT_MESSAGES, TOP_UP_TITLE, type WebhookEvent } from '#contract/payments';
import { ProviderUnavailable, type PaymentProvider, type WebhookRequest } from '../providers/provider.ts';
import type { PaymentContext } from '../deps.ts';
import { escrowTransfer, receipt, topUpReceipt } from './escrow.ts';
import { payoutNews } from './payout.ts';
import { refundArrival, refundNews } from './refund.ts';

type Received = { received: boolean; duplicate: boolean };
const RECEIVED: Received = { received: true, duplicate: false };

/**
 * A provider's webhook: read by its provider (signature, or sender and a re-read of the payment), recorded by
 * its event id (a replay changes nothing), then applied in one transaction. A success credits the customer
 * (`payment:<payment>`) and, when the order still awaits payment, pays it into escrow; otherwise the money stays
 * on the balance.
 */
export async function webhook(deps: PaymentContext, providerName: string, request: WebhookRequest): Promise<Received> {
  const provider = deps.providers.byName(providerName);
  if (!provider) throw notFound();
  try {
    return await read(deps, provider, request);
  } catch (error) {
    // The provider could not be asked about its own news: 503, so that it sends the webhook again later.
    if (error instanceof ProviderUnavailable) throw new HttpError(503, PAYMENT_MESSAGES.providerUnavailable);
    throw error;
  }
}

async function read(deps: PaymentContext, provider: PaymentProvider, request: WebhookRequest): Promise<Received> {
  const providerName = provider.name;
  const reading = await provider.readWebhook(request);
  if ('refused' in reading) {
    deps.log.warn({ provider: providerName, ip: request.ip, why: reading.refused }, 'webhook refused');
    throw badRequest('Подпись вебхука не подтверждена');
  }
  if ('payout' in reading) {
    await payoutNews(deps, providerName, reading.payout);
    return RECEIVED;
  }
  if ('refund' in reading) {
    await refundNews(deps, providerName, reading.refund);
    return RECEIVED;
  }
  if ('ignored' in reading) {
    deps.log.info({ provider: providerName, why: reading.ignored }, 'webhook: nothing to do');
    return RECEIVED;
  }
  return applyEvent(deps, providerName, reading.event);
}

/** An event of a provider (from its webhook, or from asking it), applied once by its id. */
export async function applyEvent(deps: PaymentContext, providerName: string, event: WebhookEvent): Promise<Received> {
  return deps.platform.withTx(systemActor(`payments.webhook.${providerName}`), async (ctx) => {
    const { tx } = ctx;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, providerName), eq(payments.providerRef, event.payment_ref)))
      .for('update');
    if (!payment) {
      // Not recorded: a payment whose provider's answer we have not noted yet gets the event again from the poll.
      deps.log.warn({ provider: providerName, event: event.id }, 'webhook for an unknown payment: ignored');
      return RECEIVED;
    }
    const fresh = await tx
      .insert(webhookEvents)
      .values({ provider: providerName, eventId: event.id, payload: event })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.eventId });
    if (!fresh.length) return { received: true, duplicate: true };
    if (event.currency !== payment.currency) {
      deps.log.warn({ payment: payment.id, event }, 'webhook currency differs from the payment: ignored');
      return RECEIVED;
    }
    if (event.type === 'payment.failed') {
      if (payment.status === 'pending') {
        await tx.update(payments).set({ status: 'failed', failureReason: PAYMENT_MESSAGES.declined, updatedAt: ctx.clock.now() }).where(eq(payments.id, payment.id));
      }
      return RECEIVED;
    }
    // What arrived, all told (a provider reports the total paid): only what is new is accounted for.
    const already = payment.receivedAmount ?? 0;
    if (event.amount <= already) return RECEIVED;
    if (payment.status === 'pending' && !event.late && event.amount >= payment.currencyAmount) await settle(deps, ctx, payment, event.amount);
    else await creditArrival(deps, ctx, payment, already, event);
    return RECEIVED;
  });
}

/** Kopecks of so much of the payment's currency, at the payment's own price (the order's price for its whole amount). */
function kopecksOf(payment: PaymentRow, minor: number): number {
  return Number((BigInt(minor) * BigInt(payment.amount)) / BigInt(payment.currencyAmount));
}

/** The money arrived: to the customer's balance, and on into escrow when it still pays the order; a surplus stays on the balance. */
async function settle(deps: PaymentContext, ctx: TxContext, payment: PaymentRow, received: number): Promise<void> {
  if (!payment.orderId) return settleTopUp(deps, ctx, payment, received);
  const { tx } = ctx;
  const now = ctx.clock.now();
  const order = (await deps.orders.lockForPayment(tx, payment.orderId))!;
  // Paid otherwise meanwhile (from the balance, another payment): the money stays the customer's.
  const paysOrder = order.payRefusal === null && order.price === payment.amount;
  // A card payment in a safe deal cannot be kept on the balance: it goes back to the card inside its deal (ADR 051).
  if (!paysOrder && (await refundArrival(deps, ctx, payment, order))) return;
  if (paysOrder) await deps.orders.markPaid(ctx, order);
  await tx
    .update(payments)
    .set({
      ...(paysOrder ? { status: 'succeeded' as const } : { status: 'credited' as const, failureReason: PAYMENT_MESSAGES.creditedToBalance }),
      receivedAmount: received,
      paidAt: now,
      updatedAt: now,
    })
    .where(eq(payments.id, payment.id));
  await receipt(deps, ctx, order, payment, !paysOrder);
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  await ctx.writeQueued();
  await arrival(ctx, payment, `payment:${payment.id}`, payment.amount, `Платёж (${payment.method}) за заказ №${order.number}`, order.id);
  const surplus = kopecksOf(payment, received) - payment.amount;
  if (surplus > 0) await arrival(ctx, payment, `payment:${payment.id}:${received}`, surplus, `Переплата по заказу №${order.number} — на баланс`, order.id);
  if (paysOrder) await escrowTransfer(ctx, order, payment.customerId);
}

/**
 * A top-up arrived (ADR 062): all of it to the customer's balance under the same key an order's payment uses
 * (`payment:<id>`: a replayed or raced webhook credits once), any overpayment beside it, and the receipt.
 */
async function settleTopUp(deps: PaymentContext, ctx: TxContext, payment: PaymentRow, received: number): Promise<void> {
  const now = ctx.clock.now();
  await ctx.tx.update(payments).set({ status: 'succeeded', receivedAmount: received, paidAt: now, updatedAt: now }).where(eq(payments.id, payment.id));
  const surplus = kopecksOf(payment, received) - payment.amount;
  await topUpReceipt(deps, ctx, payment, payment.amount + Math.max(0, surplus), received);
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  await ctx.writeQueued();
  await arrival(ctx, payment, `payment:${payment.id}`, payment.amount, `${TOP_UP_TITLE} (${payment.method})`, null);
  if (surplus > 0) await arrival(ctx, payment, `payment:${payment.id}:${received}`, surplus, `${TOP_UP_TITLE}: переплата`, null);
}

/**
 * Money that does not pay the order (too little, after its time, or more after the end): it is the customer's, on
 * their balance, and the order can be paid from it (ADR 048).
 */
async function creditArrival(deps: PaymentContext, ctx: TxContext, payment: PaymentRow, already: number, event: WebhookEvent): Promise<void> {
  const now = ctx.clock.now();
  const pending = payment.status === 'pending' || payment.status === 'failed' || payment.status === 'expired';
  const reason = event.late ? PAYMENT_MESSAGES.paidLate : PAYMENT_MESSAGES.underpaid;
  await ctx.tx
    .update(payments)
    .set({ receivedAmount: event.amount, updatedAt: now, ...(pending ? { status: 'credited' as const, failureReason: reason, paidAt: now } : {}) })
    .where(eq(payments.id, payment.id));
  const credit = kopecksOf(payment, event.amount) - kopecksOf(payment, already);
  deps.log.info({ payment: payment.id, received: event.amount, expected: payment.currencyAmount, late: event.late ?? false }, 'payment credited to the balance');
  if (credit > 0) await arrival(ctx, payment, `payment:${payment.id}:${event.amount}`, credit, reason, payment.orderId);
  // A top-up's every arrival is receipted (ADR 062), what it credited named.
  if (credit > 0 && !payment.orderId) await topUpReceipt(deps, ctx, payment, credit, event.amount - already);
}

/** A provider's money in: from the method's external account to the customer's balance. */
function arrival(ctx: TxContext, payment: PaymentRow, key: string, amount: number, description: string, orderId: string | null) {
  return postTransfer(ctx.tx, {
    kind: 'payment',
    key,
    orderId,
    description,
    legs: [
      { account: { kind: 'external', method: payment.method as 'card' | 'usdt' | 'btc' }, amount: -amount },
      { account: { kind: 'available', userId: payment.customerId }, amount },
    ],
  });
}
