import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '#contract/money';
import {
  DESTINATION_HINTS,
  METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  quoteHoldText,
  quoteTimerText,
  signed,
  statusTone,
  WITHDRAWAL_STATUS_LABELS,
} from './labels.ts';

describe('the crypto quote’s words (ADR 046)', () => {
  it('say the time left as time left, not as a clock reading («на 14:59»)', () => {
    expect(quoteTimerText(899_001)).toBe('Курс зафиксирован ещё 15:00');
    expect(quoteTimerText(61_000)).toBe('Курс зафиксирован ещё 1:01');
    expect(quoteTimerText(-5)).toBe('Курс зафиксирован ещё 0:00');
  });

  it('agree the minutes of the hold with their number', () => {
    expect(quoteHoldText(1)).toBe('Курс фиксируется на 1\u00a0минуту.');
    expect(quoteHoldText(3)).toBe('Курс фиксируется на 3\u00a0минуты.');
    expect(quoteHoldText(15)).toBe('Курс фиксируется на 15\u00a0минут.');
    expect(quoteHoldText(21)).toBe('Курс фиксируется на 21\u00a0минуту.');
  });
});

describe('the payments’ labels', () => {
  it('name every payment and withdrawal state', () => {
    for (const status of PAYMENT_STATUSES) expect(PAYMENT_STATUS_LABELS[status], status).toMatch(/^[А-Я]/);
    expect(Object.keys(PAYMENT_STATUS_LABELS).sort()).toEqual([...PAYMENT_STATUSES].sort());
    expect(WITHDRAWAL_STATUS_LABELS).toEqual({
      pending: 'На рассмотрении',
      sending: 'Отправляется',
      awaiting_details: 'Ждёт реквизитов',
      approved: 'Выполнен',
      rejected: 'Отклонён',
      returned: 'Возвращён на баланс',
    });
  });

  it('name every way to pay, and hint the destination of each way to withdraw', () => {
    expect(Object.keys(METHOD_LABELS)).toEqual(['balance', 'card', 'yoomoney', 'usdt', 'btc']);
    expect(Object.keys(DESTINATION_HINTS)).toEqual(['yoomoney', 'usdt', 'btc']);
    expect(DESTINATION_HINTS.yoomoney.label).toBe('Номер кошелька ЮMoney');
  });

  it.each([
    ['succeeded', 'badge'],
    ['credited', 'badge'],
    ['approved', 'badge'],
    ['pending', 'badge badge--muted'],
    ['sending', 'badge badge--muted'],
    ['returned', 'badge badge--danger'],
    ['failed', 'badge badge--danger'],
    ['expired', 'badge badge--danger'],
    ['rejected', 'badge badge--danger'],
  ])('tone the %s badge as «%s»', (status, tone) => {
    expect(statusTone(status)).toBe(tone);
  });

  it.each([
    [150, '+150 руб.'],
    [-150, '−150 руб.'],
    [0, '150 руб.'],
  ])('sign an amount of %s as %j', (amount, text) => {
    expect(signed('150 руб.', amount)).toBe(text);
  });
});
