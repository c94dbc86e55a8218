import { and, asc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import {
  paymentDifferences,
  paymentRefunds,
  payments,
  withdrawals,
  type PaymentRow,
  type WithdrawalRow,
} from '../schema.ts';
import { systemActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { postTransfer, type Leg } from '../../ledger/index.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { isDisputed, isOpenPaid } from '#contract/order-states';
import { moscowDateTime } from '../../../lib/text.ts';
import type { PaymentContext } from '../deps.ts';
import type { RefundProvider, RefundRecord } from '../providers/provider.ts';
import { recipientOf } from '../recipients.ts';
import type { LetterData } from '../../../platform/letters/index.ts';
import { orderNameOf } from '../../orders/index.ts';

// A safe deal's lifetime (ADR 058). ЮKassa closes a deal that has neither paid its seller out nor refunded its payer
// within the shop's lifetime (at most 180 days) and returns what it still holds to the payer by itself. Before that,
// those who can prevent it are told, two weeks and three days before: a seller whose payout waits for a card or
// wallet, the two sides of an order still open. After it, what the ledger still holds of the deal follows what
// ЮKassa did: an open order is cancelled, its refund being ЮKassa's own; a payout still waiting is returned to the
// payer's card, with the platform's fee (fee_moment=deal_closed: it was never taken); a dispute still open is put
// before the admin, whose full refund then meets ЮKassa's (commands/refund.ts). A deal is watched until nothing of
// ours is left in it, then marked ended.

const DAY_MS = 86_400_000;
/** Days before a deal's end each reminder goes: the first, then the last. */
export const DEAL_REMINDER_DAYS = [14, 3] as const;
const BATCH = 100;
const DISPUTE_DECIDED = 'Спор решён после конца срока сделки';

/** The recurring job: reminders of the deals ending within two weeks, and the ends of those past their lifetime. */
export async function watchDeals(deps: PaymentContext): Promise<{ reminded: number; ended: number }> {
  const now = deps.clock.now();
  const horizon = new Date(now.getTime() + DEAL_REMINDER_DAYS[0] * DAY_MS);
  const due = await deps.db
    .select()
    .from(payments)
    // Only the payment that paid its order: a card payment cancelled or never made left an empty deal, and its
    // order, perhaps paid by another, is none of that deal's business.
    .where(
      and(
        isNotNull(payments.dealExpiresAt),
        isNull(payments.dealEndedAt),
        eq(payments.status, 'succeeded'),
        lt(payments.dealExpiresAt, horizon),
      ),
    )
    .orderBy(asc(payments.dealExpiresAt))
    .limit(BATCH);
  const done = { reminded: 0, ended: 0 };
  for (const payment of due) {
    try {
      if (payment.dealExpiresAt! > now) done.reminded += Number(await remind(deps, payment));
      else done.ended += Number(await endDeal(deps, payment));
    } catch (error) {
      deps.log.warn({ err: error, payment: payment.id }, "a safe deal's end not handled: tried again next time");
    }
  }
  return done;
}

/** What of ours is still in the deal: the order while open (or in a dispute), the seller's payout while it waits. */
async function heldIn(deps: PaymentContext, tx: TxContext['tx'], payment: PaymentRow) {
  // A deal is made for an order only (a top-up never has one, ADR 062).
  const orderId = payment.orderId!;
  const order = await deps.orders.find(tx, orderId);
  const [payout] = await tx
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.orderId, orderId),
        eq(withdrawals.dealRef, payment.providerDealRef!),
        inArray(withdrawals.status, ['awaiting_details', 'sending']),
      ),
    )
    // Locked: the payout's own settlement (paid, or returned for new details) waits for this transaction, or comes first.
    .for('update');
  const open = order && (isOpenPaid(order) || isDisputed(order)) ? order : null;
  return { order, open, payout: payout ?? null };
}

/** The reminder due now (two weeks, then three days before), once each; a deal with nothing of ours left is ended. */
async function remind(deps: PaymentContext, payment: PaymentRow): Promise<boolean> {
  const left = payment.dealExpiresAt!.getTime() - deps.clock.now().getTime();
  const stage = left <= DEAL_REMINDER_DAYS[1] * DAY_MS ? 2 : 1;
  if (payment.dealReminders >= stage) return false;
  return deps.platform.withTx(systemActor('payments.deal-lifetime'), async (ctx) => {
    const [locked] = await ctx.tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
    if (!locked || locked.dealEndedAt || locked.dealReminders >= stage) return false;
    const { order, open, payout } = await heldIn(deps, ctx.tx, locked);
    if (!order || (!open && !payout)) {
      // Paid out or refunded in full: ЮKassa closed the deal then, and there is nothing to watch.
      await ctx.tx.update(payments).set({ dealEndedAt: ctx.clock.now() }).where(eq(payments.id, locked.id));
      return false;
    }
    await ctx.tx.update(payments).set({ dealReminders: stage }).where(eq(payments.id, locked.id));
    const date = moscowDateTime(locked.dealExpiresAt!);
    // A stage is named as one, under its head's number (ADR 065).
    const about = { ...(await orderNameOf(ctx.tx, order.id)), date };
    if (payout?.status === 'awaiting_details') {
      await tell(ctx, deps, payout.userId, 'deal.ending', {
        ...about,
        payout: true,
        amount: formatRubles(payout.amount),
        path: '/profile/finance',
      });
    }
    if (open) {
      for (const id of [order.customerId, order.sellerId]) {
        await tell(ctx, deps, id, 'deal.ending', {
          ...about,
          payout: false,
          amount: formatRubles(order.price),
          path: '/profile/orders',
        });
      }
    }
    return true;
  });
}

/** Past its lifetime: when ЮKassa says the deal is closed, what the ledger still holds of it follows ЮKassa's refund. */
async function endDeal(deps: PaymentContext, payment: PaymentRow): Promise<boolean> {
  const provider = deps.providers.byName(payment.provider ?? '')?.refunds;
  if (!provider) return false;
  const deal = await provider.dealState(payment.providerDealRef!);
  if (!deal) throw new Error(`deal ${payment.providerDealRef} unknown to ${payment.provider}`);
  if (deal.open) {
    // Not closed yet (ЮKassa's clock, or a longer lifetime set in the shop meanwhile): watched until it is.
    if (deal.expiresAt && deal.expiresAt.getTime() !== payment.dealExpiresAt!.getTime()) {
      await deps.db.update(payments).set({ dealExpiresAt: deal.expiresAt }).where(eq(payments.id, payment.id));
    }
    return false;
  }
  const returned = await unmatchedRefunds(deps, provider, payment);
  return deps.platform.withTx(systemActor('payments.deal-lifetime'), async (ctx) => {
    const [locked] = await ctx.tx.select().from(payments).where(eq(payments.id, payment.id)).for('update');
    if (!locked || locked.dealEndedAt) return false;
    const { order, open, payout } = await heldIn(deps, ctx.tx, locked);
    if (open && isDisputed(open)) {
      await putBeforeAdmin(ctx, locked, returned);
      return false;
    }
    // A dispute put before the admin was decided meanwhile: its difference is closed with it.
    await ctx.tx
      .update(paymentDifferences)
      .set({ resolvedAt: ctx.clock.now(), resolution: DISPUTE_DECIDED })
      .where(
        and(
          eq(paymentDifferences.kind, 'deal_ended_in_dispute'),
          eq(paymentDifferences.providerRef, locked.providerDealRef!),
          isNull(paymentDifferences.resolvedAt),
        ),
      );
    // What ЮKassa returned is what follows it: a deal closed with nothing returned was closed by a payout or a
    // refund of ours (one settling now, perhaps on the lifetime's last day), whose own settlement comes its way.
    let refund = returned.shift();
    if (open && refund && (await deps.orders.cancelAtDealEnd(ctx, open.id))) {
      // The cancellation's refund (the refund route's, pending) is ЮKassa's: its job reads it rather than makes one.
      await ctx.tx
        .update(paymentRefunds)
        .set({ providerRef: refund.ref })
        .where(eq(paymentRefunds.key, `settle:${open.id}`));
      refund = returned.shift();
    } else if (open) {
      deps.log.error(
        { payment: locked.id },
        "a closed deal's open order has no refund of ЮKassa's to follow: watched again",
      );
      return false;
    }
    if (payout && order) {
      if (!refund) return false; // the payout's own end (paid, or returned to be sent again) comes first
      await returnPayout(ctx, deps, locked, payout, refund, order);
    }
    await ctx.tx.update(payments).set({ dealEndedAt: ctx.clock.now() }).where(eq(payments.id, locked.id));
    return true;
  });
}

/** ЮKassa's succeeded refunds of the payment that none of ours names: the deal's end's own, largest first. */
export async function unmatchedRefunds(
  deps: PaymentContext,
  provider: RefundProvider,
  payment: PaymentRow,
): Promise<RefundRecord[]> {
  const theirs = (await provider.refundsOfPayment(payment.providerRef!)).filter((r) => r.state === 'succeeded');
  const ours = await deps.db
    .select({ ref: paymentRefunds.providerRef, id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, payment.id));
  const known = new Set(ours.flatMap((r) => [r.ref, r.id]));
  return theirs
    .filter((r) => !known.has(r.ref) && !(r.refundId && known.has(r.refundId)))
    .sort((a, b) => b.amount - a.amount);
}

/**
 * The seller's share that waited for details went back to the customer's card with the deal's end: the payout is
 * returned (not to the balance: the money is gone), and ЮKassa's refund is recorded as ours for the reconciliation,
 * the platform's fee it carried leaving the revenue with it.
 */
async function returnPayout(
  ctx: TxContext,
  deps: PaymentContext,
  payment: PaymentRow,
  payout: WithdrawalRow,
  refund: RefundRecord,
  order: { number: number; title: string; customerId: string },
) {
  const amount = refund.amount;
  const fee = Math.max(0, amount - payout.amount);
  const now = ctx.clock.now();
  await ctx.tx
    .update(withdrawals)
    .set({ status: 'returned', rejectReason: PAYMENT_MESSAGES.dealEnded, reviewedAt: now })
    .where(eq(withdrawals.id, payout.id));
  const description = `Заказ №${order.number}: срок безопасной сделки истёк, ЮKassa вернула оплату на карту`;
  await ctx.tx.insert(paymentRefunds).values({
    paymentId: payment.id,
    orderId: payment.orderId!,
    customerId: payment.customerId,
    provider: payment.provider!,
    providerRef: refund.ref,
    amount,
    sellerReduction: payout.amount,
    key: `deal-end:${payment.id}`,
    description,
    status: 'succeeded',
    settledAt: now,
    createdAt: now,
    updatedAt: now,
  });
  for (const [id, seller] of [
    [payout.userId, true],
    [order.customerId, false],
  ] as const) {
    await tell(ctx, deps, id, 'deal.ended', {
      ...(await orderNameOf(ctx.tx, payment.orderId!)),
      amount: formatRubles(amount),
      seller,
    });
  }
  const legs: Leg[] = [
    { account: { kind: 'withdrawal_hold', userId: payout.userId }, amount: -payout.amount },
    { account: { kind: 'external', method: 'card' }, amount },
  ];
  if (fee > 0) legs.push({ account: { kind: 'revenue' }, amount: -fee });
  // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025); what is queued so far is
  // written before it.
  await ctx.writeQueued();
  await postTransfer(ctx.tx, {
    kind: 'refund',
    key: `deal-end:${payment.id}`,
    orderId: payment.orderId,
    description,
    legs,
  });
}

/** A dispute still open when the deal ended: the admin is shown it on /admin/payments, once. */
async function putBeforeAdmin(ctx: TxContext, payment: PaymentRow, returned: RefundRecord[]) {
  const now = ctx.clock.now();
  await ctx.tx
    .insert(paymentDifferences)
    .values({
      provider: payment.provider!,
      day: now.toISOString().slice(0, 10),
      kind: 'deal_ended_in_dispute',
      providerRef: payment.providerDealRef!,
      paymentId: payment.id,
      details: { order_id: payment.orderId, provider_refunds: returned.map((r) => ({ ref: r.ref, amount: r.amount })) },
      foundAt: now,
    })
    .onConflictDoNothing();
}

async function tell<K extends 'deal.ending' | 'deal.ended'>(
  ctx: TxContext,
  deps: PaymentContext,
  userId: string,
  kind: K,
  data: LetterData<K>,
) {
  const person = await recipientOf(ctx.tx, userId);
  if (person) deps.letters.notify(ctx.outbox, person, kind, data);
}
