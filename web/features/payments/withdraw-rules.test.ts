import { describe, expect, it } from 'vitest';
import type { FinanceEntry } from '#contract/payments';
import { FINANCE_ENTRY_KINDS } from '#contract/payment-constants';
import {
  checkWithdraw,
  commissionText,
  DIRECTION_CLASSES,
  entryAmountText,
  entryBalanceText,
  groupCardNumber,
  heldNote,
  rejectReasonError,
  typedRubles,
  withdrawHint,
} from './withdraw-rules.ts';

const _ = '\u00a0';
const balance = { available: 1_000_000, min_withdrawal: 50_000 };
const check = (amount: string, destination = '4276 0000 0000 0001') => checkWithdraw({ amount, destination }, balance);

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
    ['4276000000000001', '4276 0000 0000 0001'],
    ['427600000000000123', '4276 0000 0000 0001 23'],
    ['1234', '1234'],
    ['12345', '1234 5'],
    ['', ''],
  ])('groups the card number %j as %j', (digits, grouped) => {
    expect(groupCardNumber(digits)).toBe(grouped);
  });

  it.each([
    ['', 'Укажите причину отказа'],
    ['  ab  ', 'Укажите причину отказа'],
    ['abc', null],
    ['  Реквизиты чужие ', null],
  ])('refusing with the reason %j: %s', (reason, error) => {
    expect(rejectReasonError(reason)).toBe(error);
  });
});
