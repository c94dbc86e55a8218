import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { FinanceBalance, FinanceEntry } from '#contract/payments';
import { Balances, EntriesTable } from './finance.tsx';

const _ = '\u00a0';
const noop = () => {};
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>).replace(/<!-- -->/g, '');
const balance = { available: 1_234_550, held: 50_000, min_withdrawal: 50_000 } as FinanceBalance;

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

describe('Balances', () => {
  it('shows the available and the held balance in rubles to the kopeck', () => {
    const html = render(<Balances balance={balance} />);
    expect(html).toContain(`data-testid="balance-available">12${_}345,50${_}руб.</p>`);
    expect(html).toContain(`На выводе</p><p class="fin-balance__value">500${_}руб.</p>`);
  });
});

describe('EntriesTable', () => {
  it('says when there are no movements', () => {
    expect(render(<EntriesTable entries={[]} next={null} onMore={noop} />)).toBe('<p class="page__empty">Движений по балансу пока нет.</p>');
  });

  it('shows each movement signed by direction, with its order and the balance after', () => {
    const html = render(
      <EntriesTable
        entries={[
          entry({ seq: 1, kind: 'escrow', direction: 'out', amount: -150_000, balance_after: 0, order: { _id: 'o1', number: 42, title: 'Логотип', stage: null, label: 'Заказ №42 «Логотип»' } }),
          entry({ seq: 2, kind: 'withdrawal_hold', account: 'withdrawal_hold', direction: 'held', amount: 50_000, balance_after: 50_000 }),
        ]}
        next={null}
        onMore={noop}
      />,
    );
    expect(html).toContain(`<td data-label="Сумма" class="fin-minus">−1${_}500${_}руб.</td>`);
    expect(html).toContain('Оплата заказа · <a href="/payments/o1"');
    expect(html).toContain('>Заказ №42</a>');
    expect(html).toContain('Вывод средств<span class="muted"> (в обработке)</span>');
    expect(html).toContain(`<td data-label="Сумма" class="fin-held">500${_}руб.</td>`);
    expect(html).toContain(`<td data-label="Баланс после">на выводе 500${_}руб.</td>`);
    expect(html).not.toContain('Показать ещё');
  });

  it('names a stage’s order by its head’s number and the stage (ADR 065)', () => {
    const stage = { _id: 's2', number: 1042, title: 'Лендинг', stage: { number: 2, title: 'Макеты' }, label: 'Заказ №1042, этап 2 «Макеты»' };
    const html = render(<EntriesTable entries={[entry({ seq: 1, kind: 'escrow', direction: 'out', amount: -150_000, balance_after: 0, order: stage })]} next={null} onMore={noop} />);
    expect(html).toContain('>Заказ №1042, этап 2 «Макеты»</a>');
  });

  it('itemises a seller’s settlement, a commission of zero without a minus', () => {
    const html = render(
      <EntriesTable
        entries={[entry({ kind: 'release', settlement: { price: 450_000, commission: 0, net: 450_000 } })]}
        next="cursor"
        onMore={noop}
      />,
    );
    expect(html).toContain(`<dt>Комиссия сервиса</dt><dd>0${_}руб.</dd>`);
    expect(html).toContain(`<dt>Вам</dt><dd>4${_}500${_}руб.</dd>`);
    expect(html).toContain('Показать ещё');
  });
});
