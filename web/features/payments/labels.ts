import type { PaymentStatus, WithdrawalStatus } from '#contract/money';
import { pluralWithCount } from '#contract/plural';

// The payments' words on the pages (zod-free: the pages import them).

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Ожидает оплаты',
  succeeded: 'Оплачен',
  failed: 'Отклонён',
  expired: 'Курс устарел',
  credited: 'Зачислен на баланс',
};

export const WITHDRAWAL_STATUS_LABELS: Record<WithdrawalStatus, string> = {
  pending: 'На рассмотрении',
  sending: 'Отправляется',
  approved: 'Выполнен',
  rejected: 'Отклонён',
  returned: 'Возвращён на баланс',
  awaiting_details: 'Ждёт реквизитов',
};

export const METHOD_LABELS: Record<string, string> = {
  balance: 'Баланс',
  card: 'Банковская карта',
  yoomoney: 'Кошелёк ЮMoney',
  usdt: 'USDT (TRC-20)',
  btc: 'Bitcoin',
};

/** The destinations typed in the form; a card is entered in ЮKassa's payout widget instead (ADR 050). */
export const DESTINATION_HINTS: Record<'yoomoney' | 'usdt' | 'btc', { label: string; placeholder: string }> = {
  yoomoney: { label: 'Номер кошелька ЮMoney', placeholder: '4100 1234 5678 9012' },
  usdt: { label: 'Адрес USDT (TRC-20)', placeholder: 'T…' },
  btc: { label: 'Адрес Bitcoin', placeholder: 'bc1… / 1… / 3…' },
};

/** The badge class of a state: success, waiting or refusal. */
export function statusTone(status: string): string {
  if (status === 'succeeded' || status === 'approved' || status === 'credited') return 'badge';
  if (status === 'pending' || status === 'sending' || status === 'awaiting_details') return 'badge badge--muted';
  return 'badge badge--danger';
}

/** "+1 500 руб." / "−300 руб." */
export const signed = (text: string, amount: number) => (amount > 0 ? `+${text}` : amount < 0 ? `−${text}` : text);

/**
 * The crypto quote's timer: time left, said as time left («ещё 14:59»), never as a clock reading («на 14:59»
 * reads as a quarter to three).
 */
export function quoteTimerText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `Курс зафиксирован ещё ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** "Курс фиксируется на 1 минуту", "… на 15 минут" (the settings choose the length). */
export const quoteHoldText = (minutes: number) =>
  `Курс фиксируется на ${pluralWithCount(minutes, 'минуту', 'минуты', 'минут')}.`;
