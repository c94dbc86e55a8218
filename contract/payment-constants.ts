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
  cardNumberRefused: 'Номер карты не принимается: введите карту в защищённой форме ЮKassa',
  cardTokenMissing: 'Введите карту в форме ЮKassa',
  cardMask: 'Данные карты из формы ЮKassa не распознаны — введите карту ещё раз',
  walletNumber: 'Номер кошелька ЮMoney: от 11 до 20 цифр',
  innInvalid: 'Проверьте ИНН: 12 цифр с верной контрольной суммой',
  phoneInvalid: 'Телефон: +7 и 10 цифр',
  innOrPhone: 'Укажите ИНН или телефон — одно из двух',
  selfEmployedUnavailable: 'Подключить самозанятость можно, когда выплаты идут через ЮKassa',
  cardWidgetFailed: 'Форма ввода карты не загрузилась — проверьте соединение и попробуйте ещё раз',
  usdtAddress: 'Адрес USDT (TRC-20): T и ещё 33 символа',
  btcAddress: 'Проверьте адрес Bitcoin: bc1…, 1… или 3…',
  creditedToBalance: 'Заказ уже был оплачен — деньги зачислены на ваш баланс',
  /** A card payment in a safe deal for an order already paid: refunded inside its deal (ADR 051). */
  refundedToCard: 'Заказ уже был оплачен — платёж возвращается на карту',
  declined: 'Платёж отклонён',
  payoutNoRate: 'Курс криптовалюты сейчас недоступен — одобрите вывод позже',
  payoutReturned: 'Платёжная система не смогла выполнить перевод — сумма вернулась на баланс',
  /** A payout out of a safe deal the provider could not make (ADR 053): the money stays in the deal for new details. */
  dealPayoutReturned: 'Платёжная система не смогла перевести деньги на эти реквизиты — укажите другую карту или кошелёк',
  /** A payout out of a safe deal that waited for details until the deal's end (ADR 058): ЮKassa returned it. */
  dealEnded: 'Реквизиты не были указаны до конца срока безопасной сделки — ЮKassa вернула деньги заказчику',
  payoutNotAwaiting: 'Реквизиты для этой выплаты уже указаны',
  underpaid: 'Оплата пришла не полностью — полученная сумма зачислена на ваш баланс',
  paidLate: 'Оплата пришла после окончания срока счёта — сумма зачислена на ваш баланс',
  topUpBelowMin: (min: string) => `Этим способом можно пополнить баланс от ${min}`,
  topUpAboveMax: (max: string) => `Этим способом можно пополнить баланс до ${max}`,
  /** A card under ЮKassa's safe deal (ADR 062): a card payment belongs to its order's deal, never to the balance. */
  topUpCardInDeal: 'Картой баланс не пополнить: оплата картой идёт через безопасную сделку заказа. Оплатите заказ картой на его странице или пополните баланс другим способом',
} as const;

/** What a top-up says it paid (its receipt, the finance page, the provider's page): it pays no order (ADR 062). */
export const TOP_UP_TITLE = 'Пополнение баланса';

/**
 * The range of one top-up, kopecks (ADR 062), within which each method's own limits (the operator's
 * `payments.methods`) narrow it further: 100 ₽ to 300 000 ₽.
 */
export const TOP_UP_LIMITS = { min: 10_000, max: 30_000_000 } as const;

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

/**
 * Whether a text holds what looks like a full card number (ADR 050): a run of 13–19 digits, spaces and dashes
 * between them ignored, that passes Luhn's check. No field of a withdrawal may carry one.
 */
export function looksLikeCardNumber(text: string): boolean {
  const runs = text.replace(/[\s-]/g, '').match(/\d+/g) ?? [];
  return runs.some((run) => run.length >= 13 && run.length <= 19 && luhnValid(run));
}

/**
 * Whether a payout token is a card number typed in its place: its digits alone (spaces and dashes between them
 * ignored), or a run of 13–19 digits in it that passes Luhn's check. Unlike `looksLikeCardNumber`, the dashes
 * between a token's groups do not join them: a token is an opaque string (the fake's and the sandbox's are
 * `pt-<uuid>`), and one whose digit groups happen to join into a Luhn-valid number is a token, not a card.
 */
export function tokenLooksLikeCardNumber(token: string): boolean {
  const compact = token.replace(/[\s-]/g, '');
  if (/^\d+$/.test(compact)) return compact.length >= 13 && compact.length <= 19 && luhnValid(compact);
  const runs = token.replace(/\s/g, '').match(/\d+/g) ?? [];
  return runs.some((run) => run.length >= 13 && run.length <= 19 && luhnValid(run));
}

/** A ЮMoney wallet's number: 11–20 digits (spaces allowed as typed), or null. */
export function normaliseWallet(raw: string): string | null {
  const digits = raw.replace(/\s/g, '');
  return /^\d{11,20}$/.test(digits) ? digits : null;
}

/**
 * A wallet number may pass Luhn's check by chance; ЮMoney's own numbers start with 4100 (its prefix), and only those
 * are taken when they do: any other Luhn-valid number in the wallet field is refused as a card number (ADR 050).
 */
export const walletLooksLikeCard = (digits: string): boolean => !digits.startsWith('4100') && looksLikeCardNumber(digits);

/** A self-employed seller's state at ЮKassa (https://yookassa.ru/developers/api#self_employed_object_status). */
export const SELF_EMPLOYED_STATUSES = ['pending', 'confirmed', 'canceled', 'unregistered'] as const;
export type SelfEmployedStatus = (typeof SELF_EMPLOYED_STATUSES)[number];

/** A person's INN: 12 digits whose last two are the tax service's check digits. */
export function innValid(inn: string): boolean {
  if (!/^\d{12}$/.test(inn)) return false;
  const d = [...inn].map(Number);
  const check = (weights: number[]) => (weights.reduce((sum, w, i) => sum + w * d[i]!, 0) % 11) % 10;
  return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
}

/** A Russian mobile number as ЮKassa takes it (`79001234567`), or null. */
export function normalisePhone(raw: string): string | null {
  const digits = raw.replace(/[\s()+-]/g, '');
  const national = /^8\d{10}$/.test(digits) ? `7${digits.slice(1)}` : digits;
  return /^7\d{10}$/.test(national) ? national : null;
}

/** A card as the payout widget shows it: `220220******1234` (never more than the first six and last four). */
export const cardMask = (first6: string, last4: string) => `${first6}******${last4}`;

/** The destination as stored (a card without spaces), or null when it does not fit the method. */
export function normaliseDestination(method: 'usdt' | 'btc', raw: string): string | null {
  const value = raw.trim();
  if (value.length > 120) return null;
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
