import { describe, expect, it } from 'vitest';
import { capitalised, orderLabel, orderName } from './order-name.ts';

const whole = { number: 1042, title: 'Лендинг' };
const stage = { number: 1042, title: 'Лендинг', stage: { number: 2, title: 'Макеты' } };

describe('order names (ADR 065)', () => {
  it('name a stage by its number and title and its head’s number, in each case', () => {
    expect(capitalised(orderName(stage))).toBe('Этап 2 «Макеты» заказа №1042');
    expect(orderName(stage, 'gen')).toBe('этапа 2 «Макеты» заказа №1042');
    expect(orderName(stage, 'dat')).toBe('этапу 2 «Макеты» заказа №1042');
    expect(orderName(stage, 'about')).toBe('об этапе 2 «Макеты» заказа №1042');
    expect(orderName(stage, 'nom', { title: false })).toBe('этап 2 «Макеты» заказа №1042');
  });

  it('name a whole order as before, with or without its title', () => {
    expect(orderName(whole)).toBe('заказ №1042 «Лендинг»');
    expect(orderName({ ...whole, stage: null }, 'dat')).toBe('заказу №1042 «Лендинг»');
    expect(orderName(whole, 'about', { title: false })).toBe('о заказе №1042');
  });

  it('label finance lines', () => {
    expect(orderLabel(stage)).toBe('Заказ №1042, этап 2 «Макеты»');
    expect(orderLabel(whole)).toBe('Заказ №1042 «Лендинг»');
  });
});
