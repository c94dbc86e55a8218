import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Payment, TopUpMethod } from '#contract/payments';
import { checkTopUp, TopUpForm, TopUpsList } from './top-up-form.tsx';
import { EntriesTable } from './finance.tsx';

const _ = '\u00a0';
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>).replace(/<!-- -->/g, '');
const card: TopUpMethod = { method: 'card', title: 'Банковская карта', currency: 'RUB', fee_percent: 0, min: 50_000, max: 30_000_000 };
const usdt: TopUpMethod = { method: 'usdt', title: 'USDT (TRC-20)', currency: 'USDT', fee_percent: 1.5, min: 100_000, max: 30_000_000 };

const topUp = (over: Partial<Payment>): Payment => ({
  _id: 'p1',
  order: null,
  method: 'card',
  provider: 'sandbox',
  status: 'succeeded',
  amount: 123_456,
  fee: 0,
  currency: 'RUB',
  currency_amount: 123_456,
  failure_reason: null,
  created_at: '2026-11-24T10:00:00Z',
  paid_at: '2026-11-24T10:01:00Z',
  ...over,
});

describe('checkTopUp', () => {
  it('reads rubles with a comma and spaces to the kopeck, within the method’s range', () => {
    expect(checkTopUp('1 234,56', card)).toEqual({ kopecks: 123_456, error: null });
    expect(checkTopUp('499,99', card).error).toBe(`Этим способом можно пополнить баланс от 500${_}руб.`);
    expect(checkTopUp('300000,01', card).error).toBe(`Этим способом можно пополнить баланс до 300${_}000${_}руб.`);
    expect(checkTopUp('', card).error).toBe('Укажите сумму');
    expect(checkTopUp('abc', card).error).toBe('Укажите сумму');
    expect(checkTopUp('1000', undefined).error).toBe('Выберите способ');
  });
});

describe('TopUpForm', () => {
  it('offers only the methods given, with the range and the fee as the hint', () => {
    const html = render(<TopUpForm methods={[usdt]} />);
    expect(html).toContain('Пополнить баланс');
    expect(html).toContain('<option value="usdt" selected="">USDT (TRC-20)</option>');
    expect(html).not.toContain('value="card"');
    expect(html).toContain(`От 1${_}000${_}руб. до 300${_}000${_}руб., комиссия способа 1,5 % сверху`);
  });

  it('is not shown when no method takes top-ups', () => {
    expect(render(<TopUpForm methods={[]} />)).toBe('');
  });
});

describe('the top-ups on the finance page', () => {
  it('lists each with its amount, method and state, the one returned from marked', () => {
    const html = render(<TopUpsList topUps={[topUp({}), topUp({ _id: 'p2', status: 'pending', method: 'usdt', currency: 'USDT', currency_amount: 1_390 })]} current="p2" />);
    expect(html).toContain(`1${_}234,56${_}руб.`);
    expect(html).toContain('Зачислено');
    expect(html).toContain('Ожидает оплаты');
    expect(html).toContain('13,90');
    expect(html.match(/fin-top-ups__item--current/g)).toHaveLength(1);
    expect(render(<TopUpsList topUps={[]} current={null} />)).toBe('');
  });

  it('names a ledger line that pays no order «Пополнение баланса»', () => {
    const entry = { seq: 1, kind: 'payment', account: 'available', amount: 123_456, balance_after: 123_456, created_at: '2026-11-24T10:00:00Z', order: null, direction: 'in', settlement: null } as const;
    expect(render(<EntriesTable entries={[entry]} next={null} onMore={() => {}} />)).toContain('Пополнение баланса');
  });
});
