import { PAYMENT_MESSAGES, type OrderPayMethod, type OrderPaymentPage, type Quote } from '#contract/payments';
import { formatCurrency, formatPercent, formatRubles } from '#contract/money-format';
import { PAYMENT_STATUS_LABELS } from './labels.ts';

// The payment page's decisions, apart from its state and requests: which way to pay is chosen first, what each way
// says and costs, whether a crypto quote still holds, what «Оплатить» reads and when it may be pressed, and when
// a paying attempt keeps its Idempotency-Key.

type LastPayment = OrderPaymentPage['last_payment'];

/** One paying attempt: a retry of the same method and quote sends the same key (a lost answer never pays twice). */
export interface Attempt {
  key: string;
  method: string;
  quoteId: string | null;
}

/** Crypto is paid at a quoted rate: the amount is only known once a quote is taken. */
export const isCryptoMethod = (method: string) => method === 'usdt' || method === 'btc';

/** The way to pay chosen when the page opens: the first usable one, the card when none is. */
export const firstUsableMethod = (methods: Pick<OrderPayMethod, 'method' | 'usable'>[]): string =>
  methods.find((m) => m.usable)?.method ?? 'card';

/** A usable balance tells how much it holds, in place of a reason. */
export const withBalanceNote = (m: OrderPayMethod, available: number): OrderPayMethod =>
  m.method === 'balance' && m.usable ? { ...m, reason: `Доступно ${formatRubles(available)}` } : m;

/** The line under a way to pay: why it cannot be used (or the balance held), else its fee. */
export const methodNote = (m: Pick<OrderPayMethod, 'reason' | 'fee' | 'fee_percent'>): string =>
  m.reason ?? (m.fee > 0 ? `Комиссия ${formatPercent(m.fee_percent)} — ${formatRubles(m.fee)}` : 'Без комиссии');

/** A way's amount in its currency; a crypto amount is only an estimate until the quote («≈»). */
export function methodAmountText(m: Pick<OrderPayMethod, 'method' | 'amount' | 'currency'>): string {
  const amount = m.amount === null ? '—' : formatCurrency(m.amount, m.currency);
  return isCryptoMethod(m.method) ? `≈ ${amount}` : amount;
}

/** The quote as the chosen method sees it: shown only for its own method, valid while time is left. */
export function quoteState(quote: Quote | null, method: string, now: number) {
  const left = quote ? Date.parse(quote.quote_expires_at) - now : 0;
  const shown = quote !== null && quote.method === method;
  return { shown, left, valid: shown && left > 0 };
}

/** A quote the server refused as stale: it shows as expired, so that a new one is asked for. */
export const expiredQuote = (quote: Quote): Quote => ({ ...quote, quote_expires_at: new Date(0).toISOString() });

/** «Оплатить» is pressed for a usable way, not while paying, and for crypto only with a valid quote. */
export const canPay = (chosen: Pick<OrderPayMethod, 'usable'> | undefined, busy: boolean, crypto: boolean, quoteValid: boolean) =>
  Boolean(chosen?.usable) && !busy && (!crypto || quoteValid);

/** «Оплатить 1 500 руб.»: the quoted crypto amount once valid, else the way's own amount; no amount when unknown. */
export function payButtonText(
  busy: boolean,
  chosen: Pick<OrderPayMethod, 'usable' | 'amount' | 'currency'> | undefined,
  validQuote: Pick<Quote, 'currency_amount' | 'currency'> | null,
): string {
  if (busy) return 'Оплата…';
  if (chosen?.amount == null || !chosen.usable) return 'Оплатить';
  const amount = validQuote ? formatCurrency(validQuote.currency_amount, validQuote.currency) : formatCurrency(chosen.amount, chosen.currency);
  return `Оплатить ${amount}`;
}

/** The attempt to send: the current one when the method and quote are the same, else a new one with a new key. */
export function attemptFor(current: Attempt | null, method: string, quoteId: string | null, newKey: () => string): Attempt {
  return current && current.method === method && current.quoteId === quoteId ? current : { key: newKey(), method, quoteId };
}

/** A definite answer (4xx) ends the attempt; a lost one (no status, 5xx) may be retried with the same key. */
export const attemptEnded = (status: number) => status > 0 && status < 500;

/** What the page says above the form once back from a provider: a refusal is an error, money kept is a notice. */
export interface ReturnedOutcome {
  tone: 'error' | 'notice';
  text: string;
}

/**
 * Back from a provider that did not pay the order: what became of the payment, said above the form. The server's
 * reason is the whole sentence («Платёж отклонён», «Оплата пришла не полностью — …»); the state's label stands in
 * when there is none. Money credited to the balance (too little, too late) is no failure: a notice with what the
 * balance holds now (the amount's «руб.» ends its sentence).
 */
export function returnedOutcome(returnedPayment: string | null, last: LastPayment, available: number): ReturnedOutcome | null {
  if (!returnedPayment || !last || last._id !== returnedPayment) return null;
  if (last.status === 'pending' || last.status === 'succeeded') return null;
  const said = last.failure_reason ?? PAYMENT_STATUS_LABELS[last.status];
  if (last.status === 'credited') {
    return { tone: 'notice', text: `${said}. На балансе сейчас ${formatRubles(available)} Оплатите заказ ещё раз или выберите другой способ.` };
  }
  return { tone: 'error', text: `${said}. Попробуйте ещё раз или выберите другой способ.` };
}

/** The paid order's note: a second payment returned from a provider went to the balance (ADR 025). */
export const paidNote = (returnedPayment: string | null, last: LastPayment): string =>
  last?._id === returnedPayment && last?.status === 'credited'
    ? last.failure_reason === PAYMENT_MESSAGES.refundedToCard
      ? 'Заказ уже был оплачен раньше — этот платёж возвращается на вашу карту.'
      : 'Заказ уже был оплачен раньше — деньги зачислены на ваш баланс.'
    : 'Деньги зарезервированы до приёмки работы. Исполнитель уже может приступать.';

/** The order's chat on the messages page, or the orders tab while it has none. */
export const orderChatLink = (chatId: string | null) =>
  chatId ? `/profile/messages?tab=orders&chat=${chatId}` : '/profile/messages?tab=orders';

/** What a payment page's order is of its head (ADR 065): a stage, by its number and title, of order №N. */
export type PayStage = { number: number; title: string; head_number: number } | null;

/** The payment page's heading: the order's, or its stage's («Оплата этапа 2 «Макеты» заказа №1042»). */
export const payTitle = (order: { number: number }, stage: PayStage) =>
  stage ? `Оплата этапа ${stage.number} «${stage.title}» заказа №${stage.head_number}` : `Оплата заказа №${order.number}`;

/** The page's last breadcrumb. */
export const payCrumb = (order: { number: number }, stage: PayStage) => (stage ? `Заказ №${stage.head_number} · этап ${stage.number}` : `Заказ №${order.number}`);
