import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { Order } from '#contract/orders';
import { ADMIN_ORDER_TABS, AdminOrders } from './admin-orders.tsx';

const _ = '\u00a0';

/** /admin/orders under a root route with its loader's data (the prices read the rates). */
function render(props: Parameters<typeof AdminOrders>[0], url = '/admin/orders') {
  const Stub = createRoutesStub([{ id: 'root', path: '/admin/orders', Component: () => <AdminOrders {...props} /> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={[url]} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const party = (id: string, name: string) => ({ _id: id, name, surname: '', user_name: `${id}_nick`, avatar: null });
const order = (over: Partial<Order> = {}): Order =>
  ({
    _id: 'o1',
    number: 1042,
    title: 'Логотип',
    status: 'disputed',
    customer: party('c1', 'Анна'),
    seller: party('s1', ''),
    extras: [],
    price: 450_000,
    created_at: '2026-11-24T10:00:00Z',
    ...over,
  }) as Order;

describe('AdminOrders', () => {
  it('lists every order with its parties, price and state', () => {
    const html = render({ orders: [order()], total: 1, next: null, failed: false });
    expect(html).toContain('Найдено: 1');
    expect(html).toContain('№1042 · Логотип</button>');
    expect(html).toContain('<td data-label="Стороны">Анна → s1_nick</td>');
    expect(html).toContain(`<span class="price">4${_}500${_}руб.</span>`);
    expect(html).toContain('status-badge--danger">Спор</span>');
  });

  it('says how many were found, up to 10 000', () => {
    expect(render({ orders: [order()], total: 10_001, next: null, failed: false })).toContain('Найдено: больше 10 000');
  });

  it('says when nothing was found, and when the list failed', () => {
    expect(render({ orders: [], total: 0, next: null, failed: false })).toContain('Заказов не нашлось.');
    expect(render({ orders: [], total: 0, next: null, failed: true })).toContain('<p class="empty-state" role="alert">Не удалось загрузить заказы.</p>');
  });

  it('has a tab for every state, the disputes last', () => {
    expect(ADMIN_ORDER_TABS.map((t) => t.value)).toEqual(['all', 'awaiting_payment', 'in_progress', 'delivered', 'completed', 'cancelled', 'disputed']);
    const html = render({ orders: [], total: 0, next: null, failed: false }, '/admin/orders?status=disputed');
    for (const t of ADMIN_ORDER_TABS) expect(html).toContain(`>${t.label}<`);
  });
});
