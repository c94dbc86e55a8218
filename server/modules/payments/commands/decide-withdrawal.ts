import { eq } from 'drizzle-orm';
import { withdrawals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError, notFound } from '../../../lib/http.ts';
import { isUuid } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { postTransfer } from '../../ledger/index.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES, type Withdrawal } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { presentWithdrawal } from '../presenter.ts';
import { rubPerUnit } from '../pricing.ts';
import { recipientOf } from '../recipients.ts';
import { PAYOUT_JOB, payoutAmount } from './payout.ts';

/**
 * An admin approves (the money leaves to the outside) or rejects (it returns to the balance) a request, once.
 * Who may is the endpoint's guard (admin).
 */
export async function decideWithdrawal(deps: PaymentContext, admin: UserRow, id: string, decision: 'approve' | 'reject', reason: string | null): Promise<Withdrawal> {
  if (!isUuid(id)) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
  const approve = decision === 'approve';
  const payout = approve ? await payoutPlan(deps, id) : null;
  return deps.platform.withTx(userActor(admin), async ({ tx, clock, outbox }) => {
    const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
    if (!w) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
    if (w.status !== 'pending') throw new HttpError(409, PAYMENT_MESSAGES.withdrawalDecided);
    if (payout) {
      // A provider sends it: the money stays held until the provider says it left (payout.ts).
      const [row] = await tx
        .update(withdrawals)
        .set({ status: 'sending', reviewedBy: admin.id, reviewedAt: clock.now(), payoutProvider: payout.provider, payoutAmount: payout.amount })
        .where(eq(withdrawals.id, w.id))
        .returning();
      outbox.job(PAYOUT_JOB, { withdrawalId: w.id }, { dedupeKey: `payout:${w.id}` });
      await audit(tx, { actorId: admin.id, action: 'withdrawal.approve', targetType: 'withdrawal', targetId: w.id, details: { amount: w.amount, method: w.method, provider: payout.provider } });
      const owner = await recipientOf(tx, w.userId);
      if (owner) deps.letters.notify(outbox, owner, 'withdrawal.decision', { amount: formatRubles(w.amount), decision, reason: null });
      return presentWithdrawal(row!, owner ? { id: owner.id, name: owner.name, email: owner.email } : undefined);
    }
    await postTransfer(tx, {
      kind: approve ? 'withdrawal_paid' : 'withdrawal_return',
      key: `withdrawal:${w.id}:decide`,
      description: approve ? `Вывод ${formatRubles(w.amount)} выполнен` : `Вывод ${formatRubles(w.amount)} отклонён`,
      legs: [
        { account: { kind: 'withdrawal_hold', userId: w.userId }, amount: -w.amount },
        approve ? { account: { kind: 'external', method: w.method }, amount: w.amount } : { account: { kind: 'available', userId: w.userId }, amount: w.amount },
      ],
    });
    const [row] = await tx
      .update(withdrawals)
      .set({ status: approve ? 'approved' : 'rejected', reviewedBy: admin.id, reviewedAt: clock.now(), rejectReason: approve ? null : reason })
      .where(eq(withdrawals.id, w.id))
      .returning();
    await audit(tx, {
      actorId: admin.id,
      action: approve ? 'withdrawal.approve' : 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: w.id,
      details: { amount: w.amount, method: w.method, ...(reason && !approve ? { reason } : {}) },
    });
    const owner = await recipientOf(tx, w.userId);
    if (owner) deps.letters.notify(outbox, owner, 'withdrawal.decision', { amount: formatRubles(w.amount), decision, reason: approve ? null : reason });
    return presentWithdrawal(row!, owner ? { id: owner.id, name: owner.name, email: owner.email } : undefined);
  });
}

/**
 * The provider and the amount (the coin's minor units, or kopecks) of a withdrawal a provider sends, or null when an
 * admin pays it by hand: a card or a ЮMoney wallet through ЮKassa (a card by its widget token: one made before
 * tokens has none), a crypto address through its payout provider at the rate of the moment it is approved.
 */
async function payoutPlan(deps: PaymentContext, id: string): Promise<{ provider: string; amount: number } | null> {
  const [w] = await deps.db
    .select({ method: withdrawals.method, amount: withdrawals.amount, payoutToken: withdrawals.payoutToken })
    .from(withdrawals)
    .where(eq(withdrawals.id, id));
  if (!w) return null;
  const provider = deps.providers.payoutsFor(w.method);
  if (!provider) return null;
  if (w.method === 'card' || w.method === 'yoomoney') return w.method === 'card' && !w.payoutToken ? null : { provider: provider.name, amount: w.amount };
  // The rates read the settings: read before the transaction.
  const amount = payoutAmount(w.method, w.amount, await rubPerUnit(deps, w.method === 'btc' ? 'BTC' : 'USDT'));
  if (amount <= 0) throw new HttpError(409, PAYMENT_MESSAGES.payoutNoRate);
  return { provider: provider.name, amount };
}
