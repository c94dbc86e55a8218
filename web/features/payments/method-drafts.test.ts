import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYMENT_RATES } from '#contract/payments';
import { kopecksOf, methodDrafts, methodsFromDrafts, type MethodDraft } from './method-drafts.ts';

// The admin's editor of the ways to pay: rubles and percents as typed, kopecks as stored, and each row's errors.

const row = (over: Partial<MethodDraft> = {}): MethodDraft => ({ title: 'Банковская карта', currency: 'RUB', fee: '0', min: '500', max: '600000', ...over });

describe('kopecksOf', () => {
  it.each([
    ['500', 50_000],
    ['500,5', 50_050],
    ['500.05', 50_005],
    [' 7 ', 700],
    ['0', 0],
    ['0,004', 0],
    ['0,005', 1],
  ])('%j is %s kopecks', (text, kopecks) => {
    expect(kopecksOf(text)).toBe(kopecks);
  });

  it.each(['', '   ', 'abc', '1 000', '5,0,0', 'Infinity'])('%j is no amount', (text) => {
    expect(kopecksOf(text)).toBeNaN();
  });
});

describe('methodDrafts', () => {
  it('shows the stored kopecks as rubles and the fee as typed', () => {
    expect(methodDrafts(DEFAULT_PAYMENT_RATES)).toEqual({
      card: { title: 'Банковская карта', currency: 'RUB', fee: '0', min: '500', max: '600000' },
      usdt: { title: 'USDT (TRC-20)', currency: 'USDT', fee: '1', min: '1000', max: '1000000' },
      btc: { title: 'Bitcoin', currency: 'BTC', fee: '1.5', min: '3000', max: '1000000' },
    });
  });

  it('keeps a limit’s kopecks', () => {
    expect(methodDrafts({ card: { title: 'Карта', currency: 'RUB', fee: 2.25, min: 50_050, max: 50_005 } }).card).toMatchObject({
      fee: '2.25',
      min: '500,50',
      max: '500,05',
    });
  });

  it('gives back the stored methods unchanged when nothing is edited', () => {
    expect(methodsFromDrafts(methodDrafts(DEFAULT_PAYMENT_RATES))).toEqual({ rates: DEFAULT_PAYMENT_RATES, errors: {} });
  });
});

describe('methodsFromDrafts', () => {
  it('reads a decimal comma in the fee and the limits', () => {
    const { rates, errors } = methodsFromDrafts({ usdt: row({ title: 'USDT', currency: 'USDT', fee: '1,5', min: '1000,50', max: '2000' }) });
    expect(errors).toEqual({});
    expect(rates.usdt).toEqual({ title: 'USDT', currency: 'USDT', fee: 1.5, min: 100_050, max: 200_000 });
  });

  it('allows equal limits and a zero minimum', () => {
    expect(methodsFromDrafts({ card: row({ min: '0', max: '0' }) }).errors).toEqual({});
    expect(methodsFromDrafts({ card: row({ min: '500', max: '500' }) }).errors).toEqual({});
  });

  it.each([
    ['a blank fee', { fee: ' ' }],
    ['a fee that is no number', { fee: 'один' }],
    ['a blank minimum', { min: '' }],
    ['a maximum that is no number', { max: '100 000' }],
  ])('asks for numbers with %s', (_what, over) => {
    expect(methodsFromDrafts({ card: row(over) }).errors).toEqual({ 'payments.methods.card': ['Введите числа'] });
  });

  it('refuses a minimum above the maximum, to the kopeck', () => {
    expect(methodsFromDrafts({ card: row({ min: '500,01', max: '500' }) }).errors).toEqual({ 'payments.methods.card': ['Минимум больше максимума'] });
  });

  it('keys each row’s error by its method, and still returns every row', () => {
    const { rates, errors } = methodsFromDrafts({ card: row(), usdt: row({ fee: '' }), btc: row({ min: '2', max: '1' }) });
    expect(errors).toEqual({ 'payments.methods.usdt': ['Введите числа'], 'payments.methods.btc': ['Минимум больше максимума'] });
    expect(Object.keys(rates)).toEqual(['card', 'usdt', 'btc']);
  });
});
