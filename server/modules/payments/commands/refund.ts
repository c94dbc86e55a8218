import { and, asc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { paymentRefunds, payments, type PaymentRefundRow, type PaymentRow } from '../schema.ts';
import { systemActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { postTransfer } from '../../ledger/index.ts';
import { commissionOn } from '#contract/money';
import type { PaymentContext } from '../deps.ts';
import { orderNames, type EscrowRefund, type OrderToPay } from '../../orders/index.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { formatRubles } from '#contract/money-format';
import { recipientOf } from '../recipients.ts';
import { ProviderUnavailable, type ProviderRefund, type RefundProvider } from '../providers/provider.ts';
import { wakeDealPayout } from './payout.ts';
import { unmatchedRefunds } from './deal-lifetime.ts';

// Refunds inside a card payment's safe deal (ADR 051). The money of an order paid by card is at ЮKassa in the
// payment's deal and can only go back to the payer or out to the seller, so a refund decided here (a cancellation,
// a dispute's decision, a payment for an order already paid) is made there: recorded pending in the deciding
// transaction, sent by the outbox job REFUND_JOB under the key `refund-<id>` (a retry, a crash after the call,
// the poll: the same refund), its outcome read from the provider (never from a notification's body) and mirrored
// in the ledger by one transfer `refund:<id>`: succeeded, escrow → external:card; refused, escrow → the
// customer's balance. Until then its kopecks stay in the order's escrow, as they stay in the deal.

export const REFUND_JOB = 'payments.refund';
/** A pending refund not answered by its job for this long is sent again by the poll (same key: found, not made twice). */
const RESEND_AFTER_MS = 5 * 60_000;
/** ЮKassa keeps an idempotence key 24 hours: later, the same key could make a second refund, so it is not sent again. */
const KEY_LIFE_MS = 24 * 60 * 60_000;
const BATCH = 50;

/** The order's card payment whose safe deal holds its money, if it was paid so. */
export async function dealPaymentOf(deps: PaymentContext, ctx: Pick<TxContext, 'tx'>, orderId: string) {
  const [payment] = await ctx.tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        eq(payments.status, 'succeeded'),
        isNotNull(payments.providerDealRef),
        isNotNull(payments.providerRef),
      ),
    )
    .limit(1);
  return payment && deps.providers.byName(payment.provider ?? '')?.refunds ? payment : null;
}

/**
 * In the deciding transaction: when the order was paid by a card payment in a safe deal, the refund is recorded
 * and its job queued, and the answer is true — the caller leaves the kopecks in escrow. Otherwise false: the
 * caller refunds to the balance as before. The seller's payout in the deal shrinks to what they keep now.
 */
export async function takeRefund(deps: PaymentContext, ctx: TxContext, refund: EscrowRefund): Promise<boolean> {
  const payment = await dealPaymentOf(deps, ctx, refund.orderId);
  if (!payment) return false;
  const sellerShare = refund.price - commissionOn(refund.price, refund.commissionBp);
  const kept = refund.price - refund.amount;
  const sellerReduction = sellerShare - (kept - commissionOn(kept, refund.commissionBp));
  await record(ctx, {
    paymentId: payment.id,
    orderId: refund.orderId,
    customerId: refund.customerId,
    provider: payment.provider!,
    amount: refund.amount,
    sellerReduction,
    key: refund.key,
    description: refund.description,
  });
  return true;
}

/**
 * A card payment in a safe deal that arrived for an order already paid otherwise (ADR 051): it is refunded inside
 * its deal instead of going to the balance. Its kopecks arrive into the order's escrow (`payment:<id>`, as the deal
 * holds them) and leave it when the refund settles. Answers false when its provider cannot refund in the deal.
 */
export async function refundArrival(deps: PaymentContext, ctx: TxContext, payment: PaymentRow, order: Pick<OrderToPay, 'id' | 'number' | 'price' | 'commissionBp'>): Promise<boolean> {
  if (!payment.providerDealRef || !deps.providers.byName(payment.provider ?? '')?.refunds) return false;
  const now = ctx.clock.now();
  await ctx.tx
    .update(payments)
    .set({ status: 'credited', failureReason: PAYMENT_MESSAGES.refundedToCard, receivedAmount: payment.currencyAmount, paidAt: now, updatedAt: now })
    .where(eq(payments.id, payment.id));
  const description = `Заказ №${order.number} уже оплачен: возврат платежа на карту`;
  // The seller's whole payout of this payment's deal goes with it (the share it was made with).
  const sellerReduction = order.price - commissionOn(order.price, order.commissionBp);
  await record(ctx, { paymentId: payment.id, orderId: order.id, customerId: payment.customerId, provider: payment.provider!, amount: payment.amount, sellerReduction: Math.min(sellerReduction, payment.amount), key: `payment:${payment.id}:refund`, description });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  await ctx.writeQueued();
  await postTransfer(ctx.tx, {
    kind: 'payment',
    key: `payment:${payment.id}`,
    orderId: order.id,
    description: `Платёж (card) за уже оплаченный заказ №${order.number} — возвращается на карту`,
    legs: [
      { account: { kind: 'external', method: 'card' }, amount: -payment.amount },
      { account: { kind: 'escrow', orderId: order.id }, amount: payment.amount },
    ],
  });
  return true;
}

/** A refund row and its job, in the caller's transaction (once per key). */
export async function record(ctx: TxContext, row: Omit<typeof paymentRefunds.$inferInsert, 'id'>): Promise<void> {
  const now = ctx.clock.now();
  const [made] = await ctx.tx
    .insert(paymentRefunds)
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: paymentRefunds.key })
    .returning({ id: paymentRefunds.id });
  if (made) ctx.outbox.job(REFUND_JOB, { refundId: made.id });
}

function providerOf(deps: PaymentContext, refund: PaymentRefundRow): RefundProvider {
  const provider = deps.providers.byName(refund.provider)?.refunds;
  if (!provider) throw new Error(`refund ${refund.id}: provider ${refund.provider} does not refund`);
  return provider;
}

/** The job: the refund made at the provider under its key (found again, never made twice), then its outcome applied. */
export async function sendRefund(deps: PaymentContext, refundId: string): Promise<void> {
  const [refund] = await deps.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
  if (!refund || refund.status !== 'pending') return;
  if (!refund.providerRef && refund.createdAt.getTime() < deps.clock.now().getTime() - KEY_LIFE_MS) {
    // Made there perhaps, its answer lost: reconciliation shows a refund of ours ЮKassa has (refund_unknown if so).
    deps.log.error({ refund: refund.id }, 'refund unanswered past the life of its idempotence key: not sent again');
    return;
  }
  // Tied to a refund ЮKassa made itself (a deal's end, ADR 058): read, never made.
  if (refund.providerRef) return refundNews(deps, refund.provider, refund.providerRef);
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, refund.paymentId));
  if (payment!.dealExpiresAt && payment!.dealExpiresAt <= deps.clock.now() && (await matchDealEnd(deps, refund, payment!))) return;
  // ProviderUnavailable propagates: the outbox retries the job, and the poll after it.
  const answer = await providerOf(deps, refund).refund({
    id: refund.id,
    paymentRef: payment!.providerRef!,
    amount: refund.amount,
    sellerReduction: refund.sellerReduction,
    description: refund.description,
  });
  if (answer.ref) {
    await deps.db
      .update(paymentRefunds)
      .set({ providerRef: answer.ref, updatedAt: deps.clock.now() })
      .where(and(eq(paymentRefunds.id, refund.id), isNull(paymentRefunds.providerRef)));
  }
  await settleRefund(deps, refund.id, answer);
}

/**
 * A refund decided after its deal's lifetime (a dispute decided late, ADR 058): the deal is closed and ЮKassa returned
 * its money by itself, so a refund of the whole of it is that refund of ЮKassa's, tied to ours and read. Anything
 * else is sent as usual (ЮKassa refuses it, and the refusal is handled as any other).
 */
async function matchDealEnd(deps: PaymentContext, refund: PaymentRefundRow, payment: PaymentRow): Promise<boolean> {
  const provider = providerOf(deps, refund);
  const deal = await provider.dealState(payment.providerDealRef!);
  if (!deal || deal.open) return false;
  const [theirs] = await unmatchedRefunds(deps, provider, payment);
  if (!theirs || theirs.amount !== refund.amount) return false;
  await deps.db
    .update(paymentRefunds)
    .set({ providerRef: theirs.ref, updatedAt: deps.clock.now() })
    .where(and(eq(paymentRefunds.id, refund.id), isNull(paymentRefunds.providerRef)));
  await settleRefund(deps, refund.id, theirs);
  return true;
}

/** A provider's notification of a refund: only a hint, its state is asked of the provider. */
export async function refundNews(deps: PaymentContext, providerName: string, ref: string): Promise<void> {
  const [refund] = await deps.db
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.provider, providerName), eq(paymentRefunds.providerRef, ref)));
  if (!refund || refund.status !== 'pending') return;
  const state = await providerOf(deps, refund).refundState(ref);
  if (state) await settleRefund(deps, refund.id, state);
}

/**
 * The recurring job: refunds the provider has not answered for are asked about (GET), and those whose job never
 * reached it (the provider down through every retry, a crash) are sent again under the same key.
 */
export async function pollRefunds(deps: PaymentContext): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - RESEND_AFTER_MS);
  const open = await deps.db
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.status, 'pending'), lt(paymentRefunds.updatedAt, before)))
    .orderBy(asc(paymentRefunds.createdAt))
    .limit(BATCH);
  let settled = 0;
  for (const refund of open) {
    try {
      if (!refund.providerRef) await sendRefund(deps, refund.id);
      else await refundNews(deps, refund.provider, refund.providerRef);
      const [after] = await deps.db
        .select({ status: paymentRefunds.status })
        .from(paymentRefunds)
        .where(eq(paymentRefunds.id, refund.id));
      if (after?.status !== 'pending') settled++;
    } catch (error) {
      const level = error instanceof ProviderUnavailable ? 'warn' : 'error';
      deps.log[level]({ err: error, refund: refund.id }, 'refund not settled: asked again next time');
    }
  }
  return settled;
}

/**
 * The provider's outcome, once: succeeded, the kopecks leave escrow to the card; refused, they go to the customer's
 * balance (no money is lost; reconciliation shows the refusal to the admin). Pending changes nothing.
 */
export async function settleRefund(deps: PaymentContext, refundId: string, answer: ProviderRefund): Promise<boolean> {
  if (answer.state === 'pending') return false;
  return deps.platform.withTx(systemActor('payments.refund'), async ({ tx, clock, outbox, writeQueued }) => {
    const [refund] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId)).for('update');
    if (!refund || refund.status !== 'pending') return false;
    const succeeded = answer.state === 'succeeded';
    const now = clock.now();
    await tx
      .update(paymentRefunds)
      .set({
        status: succeeded ? 'succeeded' : 'refused',
        failureReason: succeeded ? null : (answer.reason ?? 'refused'),
        settledAt: now,
        updatedAt: now,
      })
      .where(eq(paymentRefunds.id, refund.id));
    if (!succeeded) {
      deps.log.error({ refund: refund.id, reason: answer.reason }, 'refund refused by the provider: credited to the balance');
      await tellRefused(deps, { tx, outbox }, refund);
    }
    // The seller's payout out of the same deal waited for it (a payout closes the deal): it goes now (ADR 053).
    await wakeDealPayout({ tx, outbox }, refund.orderId, refund.id);
    // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far
    // is written before it.
    await writeQueued();
    await postTransfer(tx, {
      kind: 'refund',
      key: `refund:${refund.id}`,
      orderId: refund.orderId,
      description: succeeded
        ? `${refund.description}: возвращено на карту`
        : `${refund.description}: возврат на карту не прошёл, деньги на балансе`,
      legs: [
        { account: { kind: 'escrow', orderId: refund.orderId }, amount: -refund.amount },
        succeeded
          ? { account: { kind: 'external', method: 'card' }, amount: refund.amount }
          : { account: { kind: 'available', userId: refund.customerId }, amount: refund.amount },
      ],
    });
    return true;
  });
}

/** The customer's letter of a refused refund: where the money is now. */
async function tellRefused(deps: PaymentContext, { tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>, refund: PaymentRefundRow) {
  const customer = await recipientOf(tx, refund.customerId);
  // Named as people see it: a stage by its head's number (ADR 065).
  const order = (await orderNames(tx, [refund.orderId])).get(refund.orderId);
  if (customer && order) deps.letters.notify(outbox, customer, 'payment.refundRefused', { amount: formatRubles(refund.amount), number: order.number, title: order.title, stage: order.stage });
}
