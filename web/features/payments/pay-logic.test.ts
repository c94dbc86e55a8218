import { describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, type OrderPayMethod, type OrderPaymentPage, type Quote } from '#contract/payments';
import {
  attemptEnded,
  attemptFor,
  canPay,
  expiredQuote,
  firstUsableMethod,
  isCryptoMethod,
  methodAmountText,
  methodNote,
  orderChatLink,
  paidNote,
  payCrumb,
  payTitle,
  payButtonText,
  quoteState,
  returnedOutcome,
  withBalanceNote,
} from './pay-logic.ts';

const _ = '\u00a0';

const way = (over: Partial<OrderPayMethod>): OrderPayMethod => ({
  method: 'card',
  title: 'Банковская карта',
  currency: 'RUB',
  fee_percent: 0,
  fee: 0,
  amount: 150_000,
  rate: null,
  min: 50_000,
  max: 60_000_000,
  usable: true,
  reason: null,
  ...over,
});

const now = Date.parse('2026-11-24T10:00:00Z');
const quote = (over: Partial<Quote> = {}): Quote => ({
  _id: 'q1',
  order_id: 'o1',
  method: 'usdt',
  currency: 'USDT',
  amount: 151_500,
  fee: 1_500,
  currency_amount: 1_595,
  rate: 95,
  quote_expires_at: new Date(now + 60_000).toISOString(),
  ...over,
});

type Last = NonNullable<OrderPaymentPage['last_payment']>;
const last = (over: Partial<Last> = {}): Last => ({ _id: 'p1', method: 'card', status: 'failed', failure_reason: null, ...over });

describe('the ways to pay', () => {
  it.each([
    ['balance', false],
    ['card', false],
    ['usdt', true],
    ['btc', true],
    ['', false],
  ])('%s is paid at a quoted rate: %s', (method, crypto) => {
    expect(isCryptoMethod(method)).toBe(crypto);
  });

  it('chooses the first usable way when the page opens, the card when none is', () => {
    expect(firstUsableMethod([way({ method: 'balance', usable: false }), way({ method: 'usdt' }), way({ method: 'card' })])).toBe('usdt');
    expect(firstUsableMethod([way({ method: 'balance' }), way({ method: 'card' })])).toBe('balance');
    expect(firstUsableMethod([way({ method: 'balance', usable: false }), way({ method: 'btc', usable: false })])).toBe('card');
    expect(firstUsableMethod([])).toBe('card');
  });

  it('says why a way cannot be used before its fee', () => {
    expect(methodNote(way({ reason: 'Недостаточно средств', fee: 2_250, fee_percent: 1.5 }))).toBe('Недостаточно средств');
  });

  it.each([
    [0, 0, 'Без комиссии'],
    [1.5, 2_250, `Комиссия 1,5${_}% — 22,50${_}руб.`],
    [1, 1_500, `Комиссия 1${_}% — 15${_}руб.`],
    [2.25, 1, `Комиссия 2,25${_}% — 0,01${_}руб.`],
    // A percent that rounds to no kopeck adds nothing: said as no fee.
    [0.001, 0, 'Без комиссии'],
  ])('with a fee of %s %% (%s kopecks) reads «%s»', (percent, fee, text) => {
    expect(methodNote(way({ fee_percent: percent, fee }))).toBe(text);
  });

  it.each([
    ['card', 'RUB', 150_000, `1${_}500${_}руб.`],
    ['balance', 'RUB', 67_050, `670,50${_}руб.`],
    ['card', 'RUB', 0, `0${_}руб.`],
    ['usdt', 'USDT', 1_595, `≈ 15,95${_}USDT`],
    ['btc', 'BTC', 16_920, `≈ 0,0001692${_}BTC`],
    ['usdt', 'USDT', null, '≈ —'],
    ['card', 'RUB', null, '—'],
  ] as const)('shows the %s amount in %s (%s) as «%s»', (method, currency, amount, text) => {
    expect(methodAmountText(way({ method, currency, amount }))).toBe(text);
  });

  it('tells how much a usable balance holds, in place of a reason', () => {
    expect(withBalanceNote(way({ method: 'balance' }), 1_234_567).reason).toBe(`Доступно 12${_}345,67${_}руб.`);
    expect(withBalanceNote(way({ method: 'balance' }), 0).reason).toBe(`Доступно 0${_}руб.`);
  });

  it('leaves an unusable balance its reason, and every other way as it is', () => {
    const short = way({ method: 'balance', usable: false, reason: 'Недостаточно средств' });
    expect(withBalanceNote(short, 100)).toBe(short);
    const card = way({ method: 'card' });
    expect(withBalanceNote(card, 100)).toBe(card);
  });
});

describe('the crypto quote', () => {
  it('is shown for its own method only, and valid while time is left', () => {
    expect(quoteState(quote(), 'usdt', now)).toEqual({ shown: true, left: 60_000, valid: true });
    expect(quoteState(quote(), 'btc', now)).toEqual({ shown: false, left: 60_000, valid: false });
    expect(quoteState(null, 'usdt', now)).toEqual({ shown: false, left: 0, valid: false });
  });

  it('expires at its moment exactly', () => {
    const at = Date.parse(quote().quote_expires_at);
    expect(quoteState(quote(), 'usdt', at - 1).valid).toBe(true);
    expect(quoteState(quote(), 'usdt', at)).toEqual({ shown: true, left: 0, valid: false });
    expect(quoteState(quote(), 'usdt', at + 5_000)).toEqual({ shown: true, left: -5_000, valid: false });
  });

  it('refused as stale by the server, shows as expired whatever the clock says, keeping its amounts', () => {
    const stale = expiredQuote(quote());
    expect(quoteState(stale, 'usdt', now).valid).toBe(false);
    expect(stale.quote_expires_at).toBe('1970-01-01T00:00:00.000Z');
    expect(stale).toMatchObject({ _id: 'q1', currency_amount: 1_595, rate: 95 });
  });
});

describe('«Оплатить»', () => {
  it.each([
    // chosen usable, busy, crypto, quote valid → may pay
    [true, false, false, false, true],
    [true, true, false, false, false],
    [false, false, false, false, false],
    [true, false, true, false, false],
    [true, false, true, true, true],
    [true, true, true, true, false],
    [false, false, true, true, false],
  ])('usable %s, busy %s, crypto %s, quote valid %s: may pay %s', (usable, busy, crypto, valid, may) => {
    expect(canPay(way({ usable }), busy, crypto, valid)).toBe(may);
  });

  it('is not pressed with no way chosen', () => {
    expect(canPay(undefined, false, false, false)).toBe(false);
  });

  it('names the amount of the chosen way, or the quote’s once valid', () => {
    expect(payButtonText(false, way({}), null)).toBe(`Оплатить 1${_}500${_}руб.`);
    expect(payButtonText(false, way({ method: 'usdt', currency: 'USDT', amount: 1_600 }), null)).toBe(`Оплатить 16,00${_}USDT`);
    expect(payButtonText(false, way({ method: 'usdt', currency: 'USDT', amount: 1_600 }), quote())).toBe(`Оплатить 15,95${_}USDT`);
    expect(payButtonText(false, way({ amount: 0 }), null)).toBe(`Оплатить 0${_}руб.`);
  });

  it('names no amount when it is unknown or the way cannot be used, and says when it is paying', () => {
    expect(payButtonText(false, way({ amount: null }), null)).toBe('Оплатить');
    expect(payButtonText(false, way({ usable: false }), null)).toBe('Оплатить');
    expect(payButtonText(false, undefined, null)).toBe('Оплатить');
    expect(payButtonText(true, way({}), quote())).toBe('Оплата…');
  });
});

describe('a paying attempt’s Idempotency-Key', () => {
  let keys = 0;
  const newKey = () => `key-${++keys}`;

  it('is new for the first attempt', () => {
    keys = 0;
    expect(attemptFor(null, 'card', null, newKey)).toEqual({ key: 'key-1', method: 'card', quoteId: null });
  });

  it('is kept by a retry of the same method and quote, and new once either changes', () => {
    keys = 0;
    const first = attemptFor(null, 'usdt', 'q1', newKey);
    expect(attemptFor(first, 'usdt', 'q1', newKey)).toBe(first);
    expect(attemptFor(first, 'usdt', 'q2', newKey)).toEqual({ key: 'key-2', method: 'usdt', quoteId: 'q2' });
    expect(attemptFor(first, 'btc', 'q1', newKey)).toEqual({ key: 'key-3', method: 'btc', quoteId: 'q1' });
    expect(attemptFor(first, 'usdt', null, newKey).key).toBe('key-4');
  });

  it.each([
    [0, false],
    [400, true],
    [409, true],
    [422, true],
    [499, true],
    [500, false],
    [502, false],
    [503, false],
  ])('after an answer of status %s is dropped: %s', (status, ended) => {
    expect(attemptEnded(status)).toBe(ended);
  });
});

describe('back from the provider', () => {
  const error = (text: string) => ({ tone: 'error', text });
  it.each([
    ['failed', null, error('Отклонён. Попробуйте ещё раз или выберите другой способ.')],
    ['failed', 'Платёж отклонён', error('Платёж отклонён. Попробуйте ещё раз или выберите другой способ.')],
    ['failed', 'Недостаточно средств на карте', error('Недостаточно средств на карте. Попробуйте ещё раз или выберите другой способ.')],
    ['expired', null, error('Курс устарел. Попробуйте ещё раз или выберите другой способ.')],
  ] as const)('a %s payment (%s) is an error above the form, its reason said once', (status, reason, outcome) => {
    expect(returnedOutcome('p1', last({ status, failure_reason: reason }), 0)).toEqual(outcome);
  });

  it('money credited to the balance is a notice with what the balance holds now', () => {
    const reason = 'Оплата пришла не полностью — полученная сумма зачислена на ваш баланс';
    expect(returnedOutcome('p1', last({ status: 'credited', failure_reason: reason }), 249_995)).toEqual({
      tone: 'notice',
      text: `${reason}. На балансе сейчас 2${_}499,95${_}руб. Оплатите заказ ещё раз или выберите другой способ.`,
    });
    expect(returnedOutcome('p1', last({ status: 'credited' }), 0)?.text).toBe(
      `Зачислен на баланс. На балансе сейчас 0${_}руб. Оплатите заказ ещё раз или выберите другой способ.`,
    );
  });

  it('says nothing of a payment still pending or paid, of another payment, or when not back from a provider', () => {
    expect(returnedOutcome('p1', last({ status: 'pending' }), 0)).toBeNull();
    expect(returnedOutcome('p1', last({ status: 'succeeded' }), 0)).toBeNull();
    expect(returnedOutcome('p2', last(), 0)).toBeNull();
    expect(returnedOutcome(null, last(), 0)).toBeNull();
    expect(returnedOutcome('', last({ _id: '' }), 0)).toBeNull();
    expect(returnedOutcome('p1', null, 0)).toBeNull();
  });

  it('tells a second payment of a paid order that it went to the balance', () => {
    expect(paidNote('p1', last({ status: 'credited' }))).toBe('Заказ уже был оплачен раньше — деньги зачислены на ваш баланс.');
  });

  it('tells a second card payment of a paid order that it goes back to the card (ADR 051)', () => {
    expect(paidNote('p1', last({ status: 'credited', failure_reason: PAYMENT_MESSAGES.refundedToCard }))).toBe('Заказ уже был оплачен раньше — этот платёж возвращается на вашу карту.');
  });

  it('otherwise tells that the money is held until the work is accepted', () => {
    const held = 'Деньги зарезервированы до приёмки работы. Исполнитель уже может приступать.';
    expect(paidNote('p1', last({ status: 'succeeded' }))).toBe(held);
    expect(paidNote('p2', last({ status: 'credited' }))).toBe(held);
    expect(paidNote(null, last({ status: 'credited' }))).toBe(held);
    expect(paidNote(null, null)).toBe(held);
  });

  it('leads to the order’s chat, or to the orders tab while it has none', () => {
    expect(orderChatLink('c1')).toBe('/profile/messages?tab=orders&chat=c1');
    expect(orderChatLink(null)).toBe('/profile/messages?tab=orders');
  });
});

describe('the payment page’s heading', () => {
  it('names a stage by its number and title, of its head’s number; a whole order by its own', () => {
    const stage = { number: 2, title: 'Макеты', head_number: 1042 };
    expect(payTitle({ number: 1044 }, stage)).toBe('Оплата этапа 2 «Макеты» заказа №1042');
    expect(payCrumb({ number: 1044 }, stage)).toBe('Заказ №1042 · этап 2');
    expect(payTitle({ number: 42 }, null)).toBe('Оплата заказа №42');
    expect(payCrumb({ number: 42 }, null)).toBe('Заказ №42');
  });
});
