import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { OrderDetail } from '#contract/orders';
import { OrderFacts } from './order-card-parts.tsx';

const _ = '\u00a0';

/** A component under a root route with its loader's data, as the pages have it (the prices read the rates). */
function inShell(node: React.ReactNode) {
  const Stub = createRoutesStub([{ id: 'root', path: '/', Component: () => <>{node}</> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={['/']} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const party = (id: string) => ({ _id: id, name: id, surname: '', user_name: id, avatar: null });
const order = (over: Partial<OrderDetail> = {}): OrderDetail =>
  ({
    _id: 'o1',
    number: 1042,
    title: 'Логотип',
    status: 'in_progress',
    customer: party('c1'),
    seller: party('s1'),
    extras: [],
    price: 450_000,
    commission: 67_500,
    settlement: null,
    revisions_left: 2,
    role: 'seller',
    actions: [],
    deadline_at: '2099-01-01T00:00:00Z',
    auto_accept_at: '2099-01-05T00:00:00Z',
    cancel_proposal: null,
    ...over,
  }) as OrderDetail;

describe('OrderFacts', () => {
  it('shows a running order’s price, deadline, revisions left and what the seller will get', () => {
    const html = inShell(<OrderFacts order={order()} />);
    expect(html).toContain(`<span class="price order-card__price">4${_}500${_}руб.</span>`);
    expect(html).toContain('до срока');
    expect(html).toContain('Доработок осталось: 2');
    expect(html).toContain(`Вы получите <span class="price">3${_}825${_}руб.</span>`);
    expect(html).toContain('href="/profile/disputes?tab=appeals&amp;subject=order&amp;object=o1"');
  });

  it('counts a delivered order down to its automatic acceptance', () => {
    const html = inShell(<OrderFacts order={order({ status: 'delivered', role: 'customer' })} />);
    expect(html).toContain('автоприёмка через');
    expect(html).not.toContain('до срока');
    expect(html).not.toContain('Вы получите');
  });

  it('shows a settled order’s ledger amounts, and no deadline nor revisions once it is over', () => {
    const html = inShell(<OrderFacts order={order({ status: 'completed', settlement: { price: 450_000, commission: 67_500, net: 382_500 } })} />);
    expect(html).toContain(`data-testid="order-settlement">Цена заказа 4${_}500${_}руб. · Комиссия сервиса 675${_}руб. · Вам 3${_}825${_}руб.</span>`);
    expect(html).not.toContain('order-countdown');
    expect(html).not.toContain('Доработок');
    expect(html).not.toContain('Вы получите');
  });
});
