import { and, eq } from 'drizzle-orm';
import { withdrawals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import type { SellerRelease } from '../../orders/index.ts';
import { badRequest, HttpError, notFound } from '../../../lib/http.ts';
import { isUuid } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { cardMask, normaliseWallet, PAYMENT_MESSAGES, type PayoutDetails, type Withdrawal } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { presentWithdrawal } from '../presenter.ts';
import { savedPayoutMethod } from '../queries.ts';
import { dealPaymentOf } from './refund.ts';
import { askForDetails, PAYOUT_JOB, payoutJobKey } from './payout.ts';

// A seller's share of an order paid by card inside a safe deal is paid out of that deal (ADR 053): the deal's money
// can only go to its seller or back to its payer, so it never reaches the seller's balance. At release the share
// becomes a payout — a withdrawal with the order and the deal, held (withdrawal_hold) and made by the provider
// without an admin — to the card or wallet the seller's last payout went to. A seller who has none yet, or whose
// card the provider could not pay, is asked for one (`awaiting_details`); the money waits in the deal meanwhile.

/**
 * In the releasing transaction: when the order was paid in a safe deal whose provider pays out of it, the payout is
 * recorded and queued (or waits for details), and the answer is true — the caller holds the share for it.
 */
export async function takeRelease(deps: PaymentContext, ctx: TxContext, release: SellerRelease): Promise<boolean> {
  const payment = await dealPaymentOf(deps, ctx, release.orderId);
  const provider = payment && deps.providers.payoutsByName(payment.provider ?? '');
  if (!payment || !provider?.dealPayouts) return false;
  const saved = await savedPayoutMethod(ctx.tx, release.sellerId, { forDeal: true, sharedTokens: provider.dealPayouts.sharedTokens });
  const card = saved?.method === 'card' ? { first6: saved.first6, last4: saved.last4, ...(saved.card_type ? { card_type: saved.card_type } : {}) } : null;
  const target = saved && targetOf(saved.method === 'card' ? { method: 'card', payout_token: saved.payout_token, card: card! } : saved);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(withdrawals)
    .values({
      userId: release.sellerId,
      amount: release.amount,
      method: target?.method ?? 'card',
      destination: target?.destination ?? '',
      payoutToken: target?.payoutToken ?? null,
      cardType: target?.cardType ?? null,
      status: target ? 'sending' : 'awaiting_details',
      reviewedAt: now,
      payoutProvider: provider.name,
      payoutAmount: release.amount,
      orderId: release.orderId,
      orderNumber: release.orderNumber,
      dealRef: payment.providerDealRef,
      createdAt: now,
    })
    .returning();
  if (target) ctx.outbox.job(PAYOUT_JOB, { withdrawalId: row!.id }, { dedupeKey: payoutJobKey(row!) });
  else await askForDetails(deps, ctx, row!, false);
  return true;
}

/** POST /api/withdrawals/{id}/details: the seller's card or wallet for a payout that waits for one; sent at once. */
export async function giveDetails(deps: PaymentContext, user: UserRow, id: string, details: PayoutDetails): Promise<Withdrawal> {
  if (!isUuid(id)) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
  const target = targetOf(details);
  return deps.platform.withTx(userActor(user), async ({ tx, outbox, clock }) => {
    const [w] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, user.id)))
      .for('update');
    if (!w) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
    if (w.status !== 'awaiting_details') throw new HttpError(409, PAYMENT_MESSAGES.payoutNotAwaiting);
    const [row] = await tx
      .update(withdrawals)
      .set({ ...target, status: 'sending', rejectReason: null, reviewedAt: clock.now() })
      .where(eq(withdrawals.id, w.id))
      .returning();
    outbox.job(PAYOUT_JOB, { withdrawalId: w.id }, { dedupeKey: payoutJobKey(row!) });
    return presentWithdrawal(row!);
  });
}

/** What is stored of a card (its token and mask, ADR 050) or a ЮMoney wallet. */
function targetOf(details: PayoutDetails): { method: 'card' | 'yoomoney'; destination: string; payoutToken: string | null; cardType: string | null } {
  if (details.method === 'card') {
    return { method: 'card', destination: cardMask(details.card.first6, details.card.last4), payoutToken: details.payout_token, cardType: details.card.card_type || null };
  }
  const wallet = normaliseWallet(details.destination);
  if (!wallet) throw badRequest(PAYMENT_MESSAGES.walletNumber, { destination: [PAYMENT_MESSAGES.walletNumber] });
  return { method: 'yoomoney', destination: wallet, payoutToken: null, cardType: null };
}
