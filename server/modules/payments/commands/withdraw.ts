import { withdrawals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { balanceOf, postTransfer } from '../../ledger/index.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES, cardMask, normaliseDestination, normaliseWallet, type Withdrawal, type WithdrawalInput } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { presentWithdrawal } from '../presenter.ts';

/** A withdrawal request: the amount leaves the available balance for the held one at once. */
export async function withdraw(deps: PaymentContext, user: UserRow, input: WithdrawalInput): Promise<Withdrawal> {
  const min = await deps.settings.get('withdrawals.minAmount');
  if (input.amount < min) {
    const message = PAYMENT_MESSAGES.withdrawalMin(formatRubles(min));
    throw badRequest(message, { amount: [message] });
  }
  const target = targetOf(input);
  return deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const available = await balanceOf(tx, { kind: 'available', userId: user.id }, { lock: true });
    if (available < input.amount) {
      const message = `${PAYMENT_MESSAGES.insufficientForWithdrawal} ${formatRubles(available)}`;
      throw new HttpError(409, message, { amount: [message] });
    }
    const [row] = await tx
      .insert(withdrawals)
      .values({ userId: user.id, amount: input.amount, method: input.method, ...target, createdAt: clock.now() })
      .returning();
    await postTransfer(tx, {
      kind: 'withdrawal_hold',
      key: `withdrawal:${row!.id}:hold`,
      description: `Заявка на вывод ${formatRubles(input.amount)}`,
      legs: [
        { account: { kind: 'available', userId: user.id }, amount: -input.amount },
        { account: { kind: 'withdrawal_hold', userId: user.id }, amount: input.amount },
      ],
    });
    return presentWithdrawal(row!);
  });
}

/**
 * What is stored of the destination (ADR 050): a card's token and mask, never its number (the contract refused any
 * field that looks like one); a wallet's digits; a crypto address as normalised.
 */
function targetOf(input: WithdrawalInput): { destination: string; payoutToken: string | null; cardType: string | null } {
  if (input.method === 'card') {
    return { destination: cardMask(input.card.first6, input.card.last4), payoutToken: input.payout_token, cardType: input.card.card_type || null };
  }
  const destination = input.method === 'yoomoney' ? normaliseWallet(input.destination) : normaliseDestination(input.method, input.destination);
  const message = input.method === 'yoomoney' ? PAYMENT_MESSAGES.walletNumber : input.method === 'usdt' ? PAYMENT_MESSAGES.usdtAddress : PAYMENT_MESSAGES.btcAddress;
  if (!destination) throw badRequest(message, { destination: [message] });
  return { destination, payoutToken: null, cardType: null };
}
