import { describe, expect, it } from 'vitest';
import type { FinanceEntry } from '#contract/payments';
import { FINANCE_ENTRY_KINDS } from '#contract/payment-constants';
import {
  checkWithdraw,
  commissionText,
  DIRECTION_CLASSES,
  entryAmountText,
  entryBalanceText,
  cardLabel,
  heldNote,
  widgetCardOf,
  withdrawBody,
  rejectReasonError,
  typedRubles,
  withdrawHint,
} from './withdraw-rules.ts';

const _ = '\u00a0';
const balance = { available: 1_000_000, min_withdrawal: 50_000 };
const check = (amount: string, destination = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE') => checkWithdraw({ amount, destination }, balance);

describe('the rubles typed in the withdraw form', () => {
  it.each([
    ['500', 500],
    ['1 500', 1_500],
    [`1${_}500`, 1_500],
    ['1500,5', 1_500.5],
    ['1500.50', 1_500.5],
    ['  700 ', 700],
    ['', 0],
    ['0', 0],
  ])('%j reads as %s rubles', (text, rubles) => {
    expect(typedRubles(text)).toBe(rubles);
  });

  it.each(['abc', '1,2,3', '500 руб.', '5-00'])('%j is no number', (text) => {
    expect(typedRubles(text)).toBeNaN();
  });
});

describe('checkWithdraw', () => {
  it.each([
    ['500', 50_000],
    ['500,00', 50_000],
    ['10 000', 1_000_000],
    ['1234,56', 123_456],
    ['999.999', 100_000],
  ])('sends %j as %s kopecks with no errors', (amount, kopecks) => {
    expect(check(amount)).toEqual({ kopecks, errors: {} });
  });

  it.each([
    ['', 'Укажите сумму'],
    ['0', 'Укажите сумму'],
    ['-500', 'Укажите сумму'],
    ['пятьсот', 'Укажите сумму'],
    ['Infinity', 'Укажите сумму'],
    ['499,99', `Минимальная сумма вывода — 500${_}руб.`],
    // A positive amount under a kopeck is below the minimum, not missing.
    ['0,001', `Минимальная сумма вывода — 500${_}руб.`],
    ['10 000,01', `Доступно 10${_}000${_}руб.`],
    ['1e6', `Доступно 10${_}000${_}руб.`],
  ])('refuses the amount %j: «%s»', (amount, error) => {
    expect(check(amount).errors).toEqual({ amount: [error] });
  });

  it('asks for a destination, blank or spaces', () => {
    expect(check('500', '').errors).toEqual({ destination: ['Укажите реквизиты'] });
    expect(check('500', '   ').errors).toEqual({ destination: ['Укажите реквизиты'] });
  });

  it('reports both fields at once', () => {
    expect(check('', '').errors).toEqual({ amount: ['Укажите сумму'], destination: ['Укажите реквизиты'] });
  });

  it('with an empty balance refuses any amount above the minimum, saying what is available', () => {
    expect(checkWithdraw({ amount: '500', destination: 'T1' }, { available: 0, min_withdrawal: 50_000 }).errors).toEqual({
      amount: [`Доступно 0${_}руб.`],
    });
  });

  it('says its limits in the amount’s hint', () => {
    expect(withdrawHint(balance)).toBe(`От 500${_}руб., доступно 10${_}000${_}руб.`);
    expect(withdrawHint({ available: 12_345, min_withdrawal: 100 })).toBe(`От 1${_}руб., доступно 123,45${_}руб.`);
  });
});

describe('a balance movement', () => {
  const entry = (over: Partial<FinanceEntry>): FinanceEntry => ({
    seq: 1,
    kind: 'payment',
    account: 'available',
    amount: 150_000,
    balance_after: 150_000,
    created_at: '2026-11-24T10:00:00Z',
    order: null,
    direction: 'in',
    settlement: null,
    ...over,
  });

  it.each([
    ['in', 150_000, `+1${_}500${_}руб.`, 'fin-plus'],
    ['out', -30_000, `−300${_}руб.`, 'fin-minus'],
    // The server's sign of the amount is not the page's: the direction is.
    ['out', 30_000, `−300${_}руб.`, 'fin-minus'],
    ['held', -30_000, `300${_}руб.`, 'fin-held'],
    ['held', 30_050, `300,50${_}руб.`, 'fin-held'],
    ['in', 1, `+0,01${_}руб.`, 'fin-plus'],
  ] as const)('%s of %s kopecks reads «%s» in %s', (direction, amount, text, className) => {
    expect(entryAmountText(entry({ direction, amount }))).toBe(text);
    expect(DIRECTION_CLASSES[direction]).toBe(className);
  });

  it('tells the held balance after it as money on its way out', () => {
    expect(entryBalanceText(entry({ account: 'available', balance_after: 250_000 }))).toBe(`2${_}500${_}руб.`);
    expect(entryBalanceText(entry({ account: 'withdrawal_hold', balance_after: 50_000 }))).toBe(`на выводе 500${_}руб.`);
    expect(entryBalanceText(entry({ account: 'withdrawal_hold', balance_after: 0 }))).toBe(`на выводе 0${_}руб.`);
  });

  it('notes what each held line did to the withdrawal, and nothing on the available balance', () => {
    expect(heldNote(entry({ account: 'withdrawal_hold', kind: 'withdrawal_hold' }))).toBe('в обработке');
    expect(heldNote(entry({ account: 'withdrawal_hold', kind: 'withdrawal_paid' }))).toBe('отправлено на реквизиты');
    expect(heldNote(entry({ account: 'withdrawal_hold', kind: 'withdrawal_return' }))).toBe('снято с вывода');
    expect(heldNote(entry({ account: 'withdrawal_hold', kind: 'adjustment' }))).toBe('на выводе');
    for (const kind of FINANCE_ENTRY_KINDS) expect(heldNote(entry({ account: 'available', kind })), kind).toBeNull();
  });

  it('writes a settlement’s commission as a minus, and none as a plain zero', () => {
    expect(commissionText(22_500)).toBe(`−225${_}руб.`);
    expect(commissionText(1)).toBe(`−0,01${_}руб.`);
    expect(commissionText(0)).toBe(`0${_}руб.`);
  });
});

describe('the admin’s withdrawal decisions', () => {
  it.each([
    ['', 'Укажите причину отказа'],
    ['  ab  ', 'Укажите причину отказа'],
    ['abc', null],
    ['  Реквизиты чужие ', null],
  ])('refusing with the reason %j: %s', (reason, error) => {
    expect(rejectReasonError(reason)).toBe(error);
  });
});

describe('the card from ЮKassa’s payout widget (ADR 050)', () => {
  const card = { payout_token: 'pt-abc', first6: '220220', last4: '1234', card_type: 'MIR' };

  it('asks for a card entered in the widget, not for a destination', () => {
    expect(checkWithdraw({ amount: '500', destination: '', method: 'card', card: null }, balance).errors).toEqual({ card: ['Введите карту в форме ЮKassa'] });
    expect(checkWithdraw({ amount: '500', destination: '', method: 'card', card }, balance).errors).toEqual({});
  });

  it('checks a ЮMoney wallet’s number: 11–20 digits', () => {
    const wallet = (destination: string) => checkWithdraw({ amount: '500', destination, method: 'yoomoney' }, balance).errors;
    expect(wallet('4100 1175 8831 136')).toEqual({});
    expect(wallet('4100')).toEqual({ destination: ['Номер кошелька ЮMoney: от 11 до 20 цифр'] });
    expect(wallet('41001abc')).toEqual({ destination: ['Номер кошелька ЮMoney: от 11 до 20 цифр'] });
  });

  it('sends a card as its token and mask, anything else as the destination typed', () => {
    expect(withdrawBody('card', 50_000, 'ignored', card)).toEqual({ amount: 50_000, method: 'card', payout_token: 'pt-abc', card: { first6: '220220', last4: '1234', card_type: 'MIR' } });
    expect(withdrawBody('card', 50_000, '', { ...card, card_type: null })).toEqual({ amount: 50_000, method: 'card', payout_token: 'pt-abc', card: { first6: '220220', last4: '1234' } });
    expect(withdrawBody('yoomoney', 50_000, '410011758831136', null)).toEqual({ amount: 50_000, method: 'yoomoney', destination: '410011758831136' });
  });

  it('reads the widget’s success data, and nothing that is not a token and a mask', () => {
    expect(widgetCardOf(card)).toEqual(card);
    expect(widgetCardOf({ payout_token: 'pt', first6: '220220', last4: '1234' })).toEqual({ payout_token: 'pt', first6: '220220', last4: '1234', card_type: null });
    expect(widgetCardOf({ payout_token: '', first6: '220220', last4: '1234' })).toBeNull();
    expect(widgetCardOf({ payout_token: 'pt', first6: '2202201234567890', last4: '1234' })).toBeNull();
    expect(widgetCardOf(null)).toBeNull();
  });

  it('names a card by its mask', () => {
    expect(cardLabel(card)).toBe('Карта 220220 •• 1234');
  });
});
