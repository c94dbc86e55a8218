import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { orderSchema, type Order } from '#contract/orders';
import { ORDER_TABS, OrderRow } from './orders-list.tsx';

const _ = '\u00a0';

/** A component under a root route with its loader's data, as the pages have it (the prices read the rates). */
function inShell(node: React.ReactNode) {
  const Stub = createRoutesStub([{ id: 'root', path: '/', Component: () => <>{node}</> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={['/']} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const party = (id: string, name: string, surname = '') => ({ _id: id, name, surname, user_name: `${id}_nick`, avatar: null });
const order = (over: Partial<Order> = {}): Order =>
  ({
    _id: 'o1',
    number: 1042,
    title: 'Логотип',
    status: 'in_progress',
    customer: party('c1', 'Анна', 'Иванова'),
    seller: party('s1', ''),
    extras: [],
    price: 450_000,
    chat_id: 'ch1',
    actions: [],
    cancel_reason: null,
    deadline_at: '2099-01-01T00:00:00Z',
    auto_accept_at: '2099-01-05T00:00:00Z',
    ...over,
  }) as Order;

describe('OrderRow', () => {
  it('shows the buyer the seller, leads to the order’s chat and counts down to the deadline', () => {
    const html = inShell(<OrderRow order={order()} role="buying" />);
    expect(html).toContain('Заказ №1042');
    expect(html).toContain('<a class="order-row__title" href="/profile/messages?tab=orders&amp;chat=ch1"');
    expect(html).toContain('Исполнитель: s1_nick');
    expect(html).toContain(`<span class="price order-row__price">4${_}500${_}руб.</span>`);
    expect(html).toContain('до срока');
    expect(html).toContain('Чат заказа');
    expect(html).not.toContain('Оплатить');
  });

  it('shows the seller the customer by name', () => {
    expect(inShell(<OrderRow order={order()} role="selling" />)).toContain('Заказчик: Анна Иванова');
  });

  it('leads a draft to its payment page, with «Оплатить» and no chat', () => {
    const html = inShell(<OrderRow order={order({ status: 'awaiting_payment', chat_id: null, actions: ['pay', 'cancel'] })} role="buying" />);
    expect(html).toContain('<a class="order-row__title" href="/payments/o1"');
    expect(html).toContain('<a class="btn btn--primary btn--sm" href="/payments/o1"');
    expect(html).not.toContain('Чат заказа');
    expect(html).not.toContain('order-countdown');
  });

  it('gives an expired draft no link, and says why it was cancelled', () => {
    const html = inShell(
      <OrderRow order={order({ status: 'cancelled', chat_id: null, actions: [], cancel_reason: 'Заказ не был оплачен вовремя' })} role="buying" />,
    );
    expect(html).toContain('<span class="order-row__title">Логотип</span>');
    expect(html).toContain('<p class="order-row__reason">Заказ не был оплачен вовремя</p>');
  });

  it('counts a delivered order down to its automatic acceptance', () => {
    const html = inShell(<OrderRow order={order({ status: 'delivered' })} role="selling" />);
    expect(html).toContain('автоприёмка через');
    expect(html).not.toContain('до срока');
  });
});

describe('OrderRow of an order in stages', () => {
  it('says beside the head’s price how many stages it has (ADR 065), and nothing for a one-stage order', () => {
    const head = orderSchema.parse({
      ...order({ status: 'in_progress', price: 1_500_000 }),
      service_id: null,
      project_id: 'p1',
      package: null,
      days: 15,
      revisions_left: 2,
      revisions_total: 2,
      commission: 0,
      settlement: null,
      role: 'customer',
      cancel_window_ends_at: null,
      cancel_proposal: null,
      cancelled_by: null,
      paid_at: '2026-11-20T10:00:00Z',
      delivered_at: null,
      completed_at: null,
      cancelled_at: null,
      created_at: '2026-11-20T10:00:00Z',
      updated_at: '2026-11-20T10:00:00Z',
      stage: null,
      stage_count: 3,
    });
    const html = inShell(<OrderRow order={head} role="buying" />);
    expect(html).toContain(`<span class="price order-row__price">15${_}000${_}руб.</span><span class="order-row__stages">3${_}этапа</span>`);
    expect(inShell(<OrderRow order={{ ...head, stage_count: 0 }} role="buying" />)).not.toContain('order-row__stages');
  });
});

describe('ORDER_TABS', () => {
  it('lists every state a person’s orders are filtered by, all first', () => {
    expect(ORDER_TABS.map((t) => t.value)).toEqual(['all', 'awaiting_payment', 'in_progress', 'delivered', 'completed', 'cancelled']);
  });
});
