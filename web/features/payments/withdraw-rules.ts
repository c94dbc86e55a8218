import type { FinanceBalance, FinanceEntry, WithdrawalInput } from '#contract/payments';
import { normaliseWallet, PAYMENT_MESSAGES } from '#contract/payment-constants';
import { formatRubles } from '#contract/money-format';
import { signed } from './labels.ts';

// The finance page's rules: the withdraw form's own checks before it asks the server, and how a balance movement
// reads (its sign, the held balance's lines).

export type WithdrawMethod = 'card' | 'yoomoney' | 'usdt' | 'btc';

/** A card as ЮKassa's payout widget gave it (ADR 050): its token and mask, never its number. */
export interface WidgetCard {
  payout_token: string;
  first6: string;
  last4: string;
  card_type?: string | null;
}

/** «Карта 220220 •• 1234»: a card the seller used, offered again. */
export const cardLabel = (card: Pick<WidgetCard, 'first6' | 'last4'>) => `Карта ${card.first6} •• ${card.last4}`;

/** What the widget's success_callback handed over, if it is a card (a token, six and four digits); else null. */
export function widgetCardOf(data: unknown): WidgetCard | null {
  const d = data as Partial<Record<keyof WidgetCard, unknown>> | null;
  if (!d || typeof d.payout_token !== 'string' || !d.payout_token) return null;
  if (typeof d.first6 !== 'string' || !/^\d{6}$/.test(d.first6) || typeof d.last4 !== 'string' || !/^\d{4}$/.test(d.last4)) return null;
  return { payout_token: d.payout_token, first6: d.first6, last4: d.last4, card_type: typeof d.card_type === 'string' ? d.card_type : null };
}

/** The request's body: a card by its token and mask, anything else by the destination typed. */
export function withdrawBody(method: WithdrawMethod, amount: number, destination: string, card: WidgetCard | null): WithdrawalInput {
  if (method === 'card') {
    const { payout_token, first6, last4, card_type } = card!;
    return { amount, method, payout_token, card: { first6, last4, ...(card_type ? { card_type } : {}) } };
  }
  return { amount, method, destination };
}

/** Rubles as typed ("1 500,50", "1500.5"); NaN when it is no number. */
export const typedRubles = (text: string): number => Number(text.replace(',', '.').replace(/\s/g, ''));

/**
 * The form's own checks: the amount in kopecks to send, and the errors by field (none when it may be sent): a
 * positive amount within the minimum and the balance, and a destination.
 */
export function checkWithdraw(
  form: { amount: string; destination: string; method?: WithdrawMethod; card?: WidgetCard | null },
  balance: Pick<FinanceBalance, 'available' | 'min_withdrawal'>,
): { kopecks: number; errors: Record<string, string[]> } {
  const rub = typedRubles(form.amount);
  const kopecks = Math.round(rub * 100);
  const errors: Record<string, string[]> = {};
  if (!Number.isFinite(rub) || rub <= 0) errors.amount = ['Укажите сумму'];
  else if (kopecks < balance.min_withdrawal) errors.amount = [`Минимальная сумма вывода — ${formatRubles(balance.min_withdrawal)}`];
  else if (kopecks > balance.available) errors.amount = [`Доступно ${formatRubles(balance.available)}`];
  if (form.method === 'card') {
    if (!form.card) errors.card = [PAYMENT_MESSAGES.cardTokenMissing];
  } else if (!form.destination.trim()) errors.destination = ['Укажите реквизиты'];
  else if (form.method === 'yoomoney' && !normaliseWallet(form.destination)) errors.destination = [PAYMENT_MESSAGES.walletNumber];
  return { kopecks, errors };
}

/** The amount field's hint: the limits the checks apply. */
export const withdrawHint = (balance: Pick<FinanceBalance, 'available' | 'min_withdrawal'>) =>
  `От ${formatRubles(balance.min_withdrawal)}, доступно ${formatRubles(balance.available)}`;

// A line's sign and colour follow the person's money (ADR 045): only money in is a green plus; the held balance's
// lines are neither, their money having left the available balance already (that line is the minus).
export const DIRECTION_CLASSES: Record<FinanceEntry['direction'], string> = { in: 'fin-plus', out: 'fin-minus', held: 'fin-held' };
const HELD_NOTES: Partial<Record<FinanceEntry['kind'], string>> = {
  withdrawal_hold: 'в обработке',
  withdrawal_paid: 'отправлено на реквизиты',
  withdrawal_return: 'снято с вывода',
};

/** "+1 500 руб." in, "−300 руб." out, "300 руб." held. */
export const entryAmountText = (e: Pick<FinanceEntry, 'amount' | 'direction'>): string =>
  e.direction === 'held' ? formatRubles(Math.abs(e.amount)) : signed(formatRubles(Math.abs(e.amount)), e.direction === 'in' ? 1 : -1);

/** The balance after a line: the held balance says it is the money on its way out. */
export const entryBalanceText = (e: Pick<FinanceEntry, 'account' | 'balance_after'>): string =>
  e.account === 'withdrawal_hold' ? `на выводе ${formatRubles(e.balance_after)}` : formatRubles(e.balance_after);

/** What a held balance's line did to the withdrawal, beside its title; null for the available balance's lines. */
export const heldNote = (e: Pick<FinanceEntry, 'account' | 'kind'>): string | null =>
  e.account === 'withdrawal_hold' ? (HELD_NOTES[e.kind] ?? 'на выводе') : null;

/** The settlement's commission as a minus, or a plain zero. */
export const commissionText = (commission: number) => (commission > 0 ? signed(formatRubles(commission), -1) : formatRubles(0));


/** The admin's reason for refusing a withdrawal: at least 3 characters once trimmed (the user reads it). */
export const rejectReasonError = (reason: string): string | null => (reason.trim().length < 3 ? 'Укажите причину отказа' : null);
