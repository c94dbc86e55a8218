import { and, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { paymentRefunds, withdrawals, type WithdrawalRow } from '../schema.ts';
import { recipientOf } from '../recipients.ts';
import { systemActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { postTransfer } from '../../ledger/index.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { PayoutRefused, type PayoutProvider } from '../providers/provider.ts';
import { selfEmployedIdOf } from './self-employed.ts';
import { orderNameOf } from '../../orders/index.ts';

// Withdrawals sent by a provider (ADR 048, 050): crypto through BTCPay, cards (by their widget token) and ЮMoney
// wallets through ЮKassa. Approved, the money stays held while the provider sends it; it leaves the ledger when the
// provider says the payout is done, and returns to the balance, with a letter, when it says it cannot be (it
// cancelled it, or refused to make it). The provider's word is always asked for (after its webhook, or by the
// poll), never taken from a webhook's body.

/** The outbox job that hands an approved withdrawal to its provider (retried until the provider answers). */
export const PAYOUT_JOB = 'payments.payout';

/** The job's key of one try: a payout sent again to new details is a new job (and a new payout at the provider). */
export const payoutJobKey = (w: Pick<WithdrawalRow, 'id' | 'payoutAttempt'>) =>
  w.payoutAttempt > 1 ? `payout:${w.id}:${w.payoutAttempt}` : `payout:${w.id}`;

const CURRENCY = { btc: 'BTC', usdt: 'USDT', card: 'RUB', yoomoney: 'RUB' } as const;
const DECIMALS = { btc: 8, usdt: 2 } as const;

/** The coin's minor units of so many kopecks at so many rubles per coin, rounded down (the rate in millionths). */
export function payoutAmount(method: 'btc' | 'usdt', kopecks: number, rubPerUnit: number): number {
  const micro = BigInt(Math.round(rubPerUnit * 1e6));
  if (micro <= 0n) return 0;
  return Number((BigInt(kopecks) * 10n ** BigInt(DECIMALS[method] + 4)) / micro);
}

/** The job: the payout made at the provider (found again, not made twice, on a retry), then its state applied. */
export async function sendPayout(deps: PaymentContext, withdrawalId: string): Promise<void> {
  const [w] = await deps.db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!w || w.status !== 'sending') return;
  // A payout closes its safe deal: a refund out of the same deal goes first, and its end sends this (ADR 053).
  if (w.orderId && w.dealRef && (await refundPending(deps.db, w.orderId))) return;
  const provider = deps.providers.payoutsByName(w.payoutProvider ?? '');
  if (!provider) throw new Error(`withdrawal ${w.id}: payout provider ${w.payoutProvider} is not configured`);
  let sent: { payoutId: string; state: string };
  try {
    const inRubles = w.method === 'card' || w.method === 'yoomoney';
    const selfEmployedId = inRubles && !w.dealRef ? await selfEmployedIdOf(deps, w.userId) : null;
    sent = await provider.createPayout({
      id: w.id,
      method: w.method,
      destination: w.destination,
      payoutToken: w.payoutToken,
      currency: CURRENCY[w.method],
      amount: w.payoutAmount!,
      selfEmployedId,
      deal: w.dealRef ? { ref: w.dealRef, orderNumber: w.orderNumber ?? 0 } : null,
      attempt: w.payoutAttempt,
    });
  } catch (error) {
    if (!(error instanceof PayoutRefused)) throw error;
    deps.log.warn(
      { withdrawal: w.id, why: error.reason },
      'payout refused by the provider: the money returns to the balance',
    );
    await settlePayout(deps, provider, w.id, 'cancelled', { attempt: w.payoutAttempt });
    return;
  }
  // A duplicate of this job (the outbox's retry, the poll's resend) may have settled this try meanwhile, and the
  // seller may have given new details for the next: the answer is this try's, and touches no other.
  const sameTry = and(
    eq(withdrawals.id, w.id),
    eq(withdrawals.status, 'sending'),
    eq(withdrawals.payoutAttempt, w.payoutAttempt),
  );
  await deps.db
    .update(withdrawals)
    .set({ payoutRef: sent.payoutId })
    .where(and(sameTry, isNull(withdrawals.payoutRef)));
  await settlePayout(deps, provider, w.id, provider.payoutOutcome(sent.state), {
    attempt: w.payoutAttempt,
    ref: sent.payoutId,
  });
}

/** A provider's webhook about a payout: its state is asked of the provider. */
export async function payoutNews(deps: PaymentContext, providerName: string, payoutRef: string): Promise<void> {
  const provider = deps.providers.payoutsByName(providerName);
  const [w] = await deps.db
    .select({ id: withdrawals.id, dealRef: withdrawals.dealRef, payoutAttempt: withdrawals.payoutAttempt })
    .from(withdrawals)
    .where(and(eq(withdrawals.payoutProvider, providerName), eq(withdrawals.payoutRef, payoutRef)));
  if (!provider || !w) return;
  const state = await provider.payoutState(payoutRef, { inDeal: w.dealRef !== null });
  if (state)
    await settlePayout(deps, provider, w.id, provider.payoutOutcome(state.state), {
      attempt: w.payoutAttempt,
      ref: payoutRef,
    });
}

/** A withdrawal approved this long ago and still not handed to its provider is sent again by the poll. */
const RESEND_AFTER_MS = 10 * 60_000;

/**
 * The recurring job: the payouts on their way whose webhook has not come, and the approved withdrawals whose send
 * never reached the provider (its job gave up while the provider was down, or refused a second payout to one
 * address while the first was pending): sent again, which finds rather than repeats one that was made.
 */
export async function pollPayouts(deps: PaymentContext): Promise<number> {
  const unsent = await deps.db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.status, 'sending'),
        isNull(withdrawals.payoutRef),
        lt(withdrawals.reviewedAt, new Date(deps.clock.now().getTime() - RESEND_AFTER_MS)),
      ),
    )
    .limit(20);
  for (const w of unsent) {
    await sendPayout(deps, w.id).catch((error: unknown) =>
      deps.log.warn({ err: error, withdrawal: w.id }, 'payout not sent: tried again next time'),
    );
  }
  const sending = await deps.db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 'sending'), isNotNull(withdrawals.payoutRef)))
    .limit(100);
  let settled = 0;
  for (const w of sending) {
    const provider = deps.providers.payoutsByName(w.payoutProvider ?? '');
    const state =
      provider && (await provider.payoutState(w.payoutRef!, { inDeal: w.dealRef !== null }).catch(() => null));
    const which = { attempt: w.payoutAttempt, ref: w.payoutRef! };
    if (provider && state && (await settlePayout(deps, provider, w.id, provider.payoutOutcome(state.state), which)))
      settled++;
  }
  return settled;
}

/**
 * Done: the held money leaves to the outside. Cancelled: it returns to the balance, and the seller is told — or, paid
 * out of a safe deal, it stays held as it stays in the deal, and the seller is asked for other details (ADR 053).
 */
async function settlePayout(
  deps: PaymentContext,
  provider: PayoutProvider,
  withdrawalId: string,
  outcome: 'paid' | 'cancelled' | null,
  which: { attempt: number; ref?: string },
): Promise<boolean> {
  if (!outcome) return false;
  return deps.platform.withTx(systemActor(`payments.payout.${provider.name}`), async ({ tx, outbox }) => {
    const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId)).for('update');
    // Only the try the outcome is about: a stale one (a payout out of a deal refused, then sent again) changes nothing.
    if (!w || w.status !== 'sending' || w.payoutAttempt !== which.attempt) return false;
    if (which.ref !== undefined && w.payoutRef !== null && w.payoutRef !== which.ref) return false;
    const paid = outcome === 'paid';
    if (!paid && w.dealRef) {
      const [row] = await tx
        .update(withdrawals)
        .set({
          status: 'awaiting_details',
          rejectReason: PAYMENT_MESSAGES.dealPayoutReturned,
          payoutRef: null,
          payoutAttempt: w.payoutAttempt + 1,
        })
        .where(eq(withdrawals.id, w.id))
        .returning();
      await askForDetails(deps, { tx, outbox }, row!, true);
      return true;
    }
    await tx
      .update(withdrawals)
      .set(paid ? { status: 'approved' } : { status: 'returned', rejectReason: PAYMENT_MESSAGES.payoutReturned })
      .where(eq(withdrawals.id, w.id));
    await postTransfer(tx, {
      kind: paid ? 'withdrawal_paid' : 'withdrawal_return',
      key: `withdrawal:${w.id}:decide`,
      description: paid
        ? `Вывод ${formatRubles(w.amount)} выполнен`
        : `Вывод ${formatRubles(w.amount)} возвращён на баланс`,
      legs: [
        { account: { kind: 'withdrawal_hold', userId: w.userId }, amount: -w.amount },
        paid
          ? { account: { kind: 'external', method: w.method }, amount: w.amount }
          : { account: { kind: 'available', userId: w.userId }, amount: w.amount },
      ],
    });
    if (!paid) await tellReturned(deps, { tx, outbox }, w);
    return true;
  });
}

async function tellReturned(deps: PaymentContext, { tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>, w: WithdrawalRow) {
  const owner = await recipientOf(tx, w.userId);
  if (owner)
    deps.letters.notify(outbox, owner, 'withdrawal.decision', {
      amount: formatRubles(w.amount),
      decision: 'reject',
      reason: PAYMENT_MESSAGES.payoutReturned,
    });
}

// Payouts out of a safe deal (ADR 053; deal-payout.ts records them).

/** Whether a refund out of this order's deal is still on its way: the deal's payout, which closes it, waits for it. */
export async function refundPending(db: PaymentContext['db'], orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.orderId, orderId), eq(paymentRefunds.status, 'pending')))
    .limit(1);
  return row !== undefined;
}

/**
 * A refund of the order's deal settled: the seller's payout that waited for it is sent. Under a key of its own, never
 * folded into the payout's job, which may have found this refund pending a moment ago (ADR 092). A second run is
 * harmless: the payout is made under one key per try at the provider.
 */
export async function wakeDealPayout({ tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>, orderId: string, refundId: string): Promise<void> {
  const [w] = await tx
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.orderId, orderId), eq(withdrawals.status, 'sending'), isNull(withdrawals.payoutRef)));
  if (w) outbox.job(PAYOUT_JOB, { withdrawalId: w.id }, { dedupeKey: `${payoutJobKey(w)}:after-refund:${refundId}` });
}

/** The seller is asked for a card or wallet: their share waits in the deal until they give one. */
export async function askForDetails(
  deps: PaymentContext,
  { tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>,
  w: WithdrawalRow,
  returned: boolean,
): Promise<void> {
  const seller = await recipientOf(tx, w.userId);
  if (!seller) return;
  // A stage's payout names the stage under its head's number (ADR 065).
  const name = w.orderId ? await orderNameOf(tx, w.orderId) : { number: w.orderNumber ?? 0, title: '', stage: null };
  deps.letters.notify(outbox, seller, 'payout.detailsNeeded', { ...name, amount: formatRubles(w.amount), returned });
}
