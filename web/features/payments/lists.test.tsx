import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Payment, Withdrawal } from '#contract/payments';
import { PaymentsTable, WithdrawalsTable } from './lists.tsx';

const _ = '\u00a0';
const inRouter = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);
/** The text of each row's cells, by their data-label. */
const cells = (html: string) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].slice(1).map((row) =>
    Object.fromEntries(
      [...row[1]!.matchAll(/<td data-label="([^"]*)"[^>]*>(.*?)<\/td>/g)].map((m) => [m[1], m[2]!.replace(/<!-- -->/g, '').replace(/<[^<>]*>/g, '')]),
    ),
  );

const payment = (over: Partial<Payment> = {}): Payment => ({
  _id: 'p1',
  order: { _id: 'o1', number: 42, title: 'Логотип', stage: null, label: 'Заказ №42 «Логотип»' },
  method: 'card',
  provider: 'sandbox',
  status: 'succeeded',
  amount: 150_000,
  fee: 0,
  currency: 'RUB',
  currency_amount: 150_000,
  failure_reason: null,
  created_at: '2026-11-24T10:00:00Z',
  paid_at: '2026-11-24T10:01:00Z',
  ...over,
});

const withdrawal = (over: Partial<Withdrawal> = {}): Withdrawal => ({
  _id: 'w1',
  amount: 50_000,
  method: 'card',
  destination: '411111 •• 0001',
  card_type: null,
  status: 'pending',
  reject_reason: null,
  order_number: null,
  created_at: '2026-11-24T10:00:00Z',
  reviewed_at: null,
  ...over,
});

describe('PaymentsTable', () => {
  it('says when there are none', () => {
    expect(inRouter(<PaymentsTable payments={[]} />)).toBe('<p class="page__empty">Платежей пока нет.</p>');
  });

  it('links the person’s payment to its order and adds the crypto amount to the rubles', () => {
    const html = inRouter(<PaymentsTable payments={[payment(), payment({ _id: 'p2', method: 'usdt', currency: 'USDT', currency_amount: 1_595, status: 'pending' })]} />);
    expect(html).toContain('href="/payments/o1"');
    expect(html).not.toContain('Покупатель');
    const [card, usdt] = cells(html);
    expect(card).toMatchObject({ Заказ: '№42 Логотип', Способ: 'Банковская карта', Сумма: `1${_}500${_}руб.`, Статус: 'Оплачен' });
    expect(usdt).toMatchObject({ Способ: 'USDT (TRC-20)', Сумма: `1${_}500${_}руб. · 15,95${_}USDT`, Статус: 'Ожидает оплаты' });
    expect(html).toContain('<span class="badge badge--muted">Ожидает оплаты</span>');
  });

  it('names a stage’s payment by its head’s number and the stage (ADR 065)', () => {
    const order = { _id: 's2', number: 1042, title: 'Лендинг', stage: { number: 2, title: 'Макеты' }, label: 'Заказ №1042, этап 2 «Макеты»' };
    const [row] = cells(inRouter(<PaymentsTable payments={[payment({ order })]} />));
    expect(row).toMatchObject({ Заказ: 'Заказ №1042, этап 2 «Макеты»' });
  });

  it('says where a card payment’s refund inside its deal went (ADR 051)', () => {
    const html = inRouter(
      <PaymentsTable
        payments={[
          payment({ refund: { amount: 150_000, status: 'succeeded' } }),
          payment({ _id: 'p2', refund: { amount: 40_000, status: 'pending' } }),
          payment({ _id: 'p3', refund: { amount: 40_000, status: 'refused' } }),
          payment({ _id: 'p4', refund: null }),
        ]}
      />,
    );
    expect(cells(html).map((c) => c['Статус'])).toEqual([
      `Оплачен · Возвращено на карту: 1${_}500${_}руб.`,
      `Оплачен · Возвращается на карту: 400${_}руб.`,
      `Оплачен · Возврат на карту не прошёл — зачислено на баланс: 400${_}руб.`,
      'Оплачен',
    ]);
  });

  it('shows the admin the customer and no link', () => {
    const html = inRouter(<PaymentsTable admin payments={[payment({ customer: { _id: 'u1', name: 'Анна', email: 'anna@example.com' } }), payment({ _id: 'p2' })]} />);
    expect(html).toContain('<th>Покупатель</th>');
    expect(html).not.toContain('href=');
    const [known, unknown] = cells(html);
    // The email on its own line under the name, free to break before its "@" in a narrow column.
    expect(html).toContain('Анна<span class="fin-person__email muted">anna<wbr/>@example.com</span>');
    expect(known).toMatchObject({ Дата: '24.11.2026', Покупатель: 'Аннаanna@example.com' });
    expect(unknown!['Покупатель']).toBe('');
  });
});

describe('WithdrawalsTable', () => {
  it('says when there are none', () => {
    expect(inRouter(<WithdrawalsTable withdrawals={[]} />)).toBe('<p class="page__empty">Заявок на вывод нет.</p>');
  });

  it('shows the person’s requests with the reason of a refusal, and no actions', () => {
    const html = inRouter(<WithdrawalsTable withdrawals={[withdrawal({ status: 'rejected', reject_reason: 'Чужие реквизиты' })]} />);
    expect(html).not.toContain('Действия');
    expect(cells(html)[0]).toMatchObject({ Сумма: `500${_}руб.`, Куда: 'Банковская карта: 411111 •• 0001', Статус: 'Отклонён — Чужие реквизиты' });
  });

  it('names the order of a payout out of its safe deal, and says when it waits for details (ADR 053)', () => {
    const html = inRouter(
      <WithdrawalsTable
        withdrawals={[
          withdrawal({ status: 'awaiting_details', destination: '', order_number: 7 }),
          withdrawal({ _id: 'w2', status: 'approved', method: 'yoomoney', destination: '410011758831136', order_number: 8 }),
        ]}
      />,
    );
    const [waiting, paid] = cells(html);
    expect(waiting).toMatchObject({ Куда: 'Реквизиты не указаны · оплата заказа №7', Статус: 'Ждёт реквизитов' });
    expect(paid).toMatchObject({ Куда: 'Кошелёк ЮMoney: 410011758831136 · оплата заказа №8', Статус: 'Выполнен' });
  });

  it('gives the admin the actions of pending requests only, a card as its mask and kind', () => {
    const html = inRouter(
      <WithdrawalsTable
        withdrawals={[withdrawal({ card_type: 'MIR' }), withdrawal({ _id: 'w2', status: 'approved', method: 'btc', destination: 'bc1q', user: { _id: 'u', name: 'Иван', email: 'i@example.com' } })]}
        actions={(w) => <button type="button">Решить {w._id}</button>}
      />,
    );
    const [pending, approved] = cells(html);
    expect(pending).toMatchObject({ Пользователь: '', Куда: 'Банковская карта: 411111 •• 0001 (MIR)', Действия: 'Решить w1' });
    expect(approved).toMatchObject({ Дата: '24.11.2026', Пользователь: 'Иванi@example.com', Куда: 'Bitcoin: bc1q', Статус: 'Выполнен', Действия: '—' });
    expect(html).toContain('Иван<span class="fin-person__email muted">i<wbr/>@example.com</span>');
  });
});
