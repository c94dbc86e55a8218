// The payments' zod-free vocabulary (pages may import it): messages, destination checks. Money is written by
// contract/money-format.ts.

export const PAYMENT_MESSAGES = {
  orderNotFound: 'Заказ не найден',
  paymentNotFound: 'Платёж не найден',
  withdrawalNotFound: 'Заявка на вывод не найдена',
  notAwaitingPayment: 'Заказ уже оплачен или отменён',
  idempotencyKeyRequired: 'Нужен заголовок Idempotency-Key (от 1 до 100 символов)',
  idempotencyKeyReused: 'Этот Idempotency-Key уже использован для другого запроса',
  idempotencyInFlight: 'Запрос уже обрабатывается',
  quoteRequired: 'Сначала получите расчёт курса',
  quoteExpired: 'Курс устарел, получите новый расчёт',
  quoteMismatch: 'Расчёт сделан для другого заказа или способа оплаты',
  noRates: 'Курсы криптовалют сейчас недоступны — оплатите в рублях',
  belowMin: (min: string) => `Этим способом можно оплатить заказ от ${min}`,
  aboveMax: (max: string) => `Этим способом можно оплатить заказ до ${max}`,
  methodUnavailable: 'Этот способ оплаты недоступен',
  providerUnavailable: 'Платёжный сервис сейчас не отвечает — попробуйте ещё раз через минуту',
  providerRefused: 'Платёжный сервис не принял платёж — выберите другой способ оплаты или попробуйте позже',
  withdrawalMin: (min: string) => `Минимальная сумма вывода — ${min}`,
  withdrawalDecided: 'Заявка уже рассмотрена',
  insufficientForWithdrawal: 'Недостаточно средств: доступно',
  rejectReason: 'Укажите причину отказа',
  cardNumber: 'Неверный номер карты: нужно 16–19 цифр без ошибок',
  usdtAddress: 'Адрес USDT (TRC-20): T и ещё 33 символа',
  btcAddress: 'Проверьте адрес Bitcoin: bc1…, 1… или 3…',
  creditedToBalance: 'Заказ уже был оплачен — деньги зачислены на ваш баланс',
  /** A card payment in a safe deal for an order already paid: refunded inside its deal (ADR 051). */
  refundedToCard: 'Заказ уже был оплачен — платёж возвращается на карту',
  declined: 'Платёж отклонён',
  payoutNoRate: 'Курс криптовалюты сейчас недоступен — одобрите вывод позже',
  payoutReturned: 'Платёжная система не смогла выполнить перевод — сумма вернулась на баланс',
  underpaid: 'Оплата пришла не полностью — полученная сумма зачислена на ваш баланс',
  paidLate: 'Оплата пришла после окончания срока счёта — сумма зачислена на ваш баланс',
} as const;

export const CRYPTO_METHODS = ['usdt', 'btc'] as const;
export type CryptoMethod = (typeof CRYPTO_METHODS)[number];

// Withdrawals: destinations are checked in linear time (no backtracking patterns).

/** Luhn's checksum over the digits of a card number. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function bech32Polymod(values: number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!;
  }
  return chk >>> 0;
}

/** A bech32/bech32m Bitcoin mainnet address (bc1…), its checksum verified. */
export function bech32Valid(address: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const a = address.toLowerCase();
  if (!/^bc1[ac-hj-np-z02-9]{8,87}$/.test(a) || a.length > 90) return false;
  const data: number[] = [];
  for (const ch of a.slice(3)) data.push(BECH32.indexOf(ch));
  const hrp = 'bc';
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const check = bech32Polymod([...expanded, ...data]);
  // bech32 (witness v0) or bech32m (v1+).
  return check === 1 || check === 0x2bc830a3;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** The destination as stored (a card without spaces), or null when it does not fit the method. */
export function normaliseDestination(method: 'card' | 'usdt' | 'btc', raw: string): string | null {
  const value = raw.trim();
  if (value.length > 120) return null;
  if (method === 'card') {
    const digits = value.replace(/ /g, '');
    return /^\d{16,19}$/.test(digits) && luhnValid(digits) ? digits : null;
  }
  if (method === 'usdt') return value.length === 34 && value[0] === 'T' && BASE58.test(value) ? value : null;
  if (/^bc1/i.test(value)) return bech32Valid(value) ? value.toLowerCase() : null;
  return (value[0] === '1' || value[0] === '3') && value.length >= 26 && value.length <= 35 && BASE58.test(value) ? value : null;
}

// The ledger's transfer kinds, and `referral`: a settlement's credit to a referrer (ADR 025), which is not a payment
// for an order of theirs.
export const FINANCE_ENTRY_KINDS = ['payment', 'escrow', 'release', 'refund', 'withdrawal_hold', 'withdrawal_paid', 'withdrawal_return', 'adjustment', 'referral'] as const;

/**
 * Which way a finance line moved the person's money (ADR 045): in (+, green), out (−), or held — a withdrawal's
 * money on its way out, already counted as out when it left the available balance, so neither plus nor minus.
 */
export const FINANCE_DIRECTIONS = ['in', 'out', 'held'] as const;
export type FinanceDirection = (typeof FINANCE_DIRECTIONS)[number];

/** What each ledger transfer kind means to the person (the finance page). */
export const FINANCE_KIND_TITLES: Record<(typeof FINANCE_ENTRY_KINDS)[number], string> = {
  payment: 'Пополнение',
  escrow: 'Оплата заказа',
  release: 'Оплата за заказ',
  refund: 'Возврат за заказ',
  withdrawal_hold: 'Вывод средств',
  withdrawal_paid: 'Вывод выполнен',
  withdrawal_return: 'Возврат отклонённого вывода',
  adjustment: 'Корректировка',
  referral: 'Реферальное вознаграждение',
};
