import { describe, expect, it } from 'vitest';
import { orderItems } from './order-constants.ts';

describe('orderItems', () => {
  it('itemises the package at the price less the extras, then each extra', () => {
    const extras = [
      { title: 'Исходники', price: 30_000, days: 1 },
      { title: 'Срочно', price: 50_000, days: 0 },
    ];
    expect(orderItems({ package: 'business', extras, price: 480_000 })).toEqual([
      { label: 'Пакет «Бизнес»', price: 400_000 },
      { label: 'Исходники', price: 30_000 },
      { label: 'Срочно', price: 50_000 },
    ]);
  });

  it('names the work of an order without a package (a bid, a service without packages)', () => {
    expect(orderItems({ package: null, extras: [], price: 150_000 })).toEqual([
      { label: 'Стоимость работы', price: 150_000 },
    ]);
  });
});
