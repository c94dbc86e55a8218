import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { Bid } from '#contract/bids';
import { MyBids, type BidsPageData } from './my-bids.tsx';

/** /profile/bids under a root route with its loader's data (the prices read the rates). */
function render(data: BidsPageData, url = '/profile/bids') {
  const Stub = createRoutesStub([{ id: 'root', path: '/profile/bids', Component: () => <MyBids {...data} /> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={[url]} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const bid = (over: Partial<Bid> = {}): Bid => ({
  _id: 'b1',
  project_id: 'p1',
  price: 500_000,
  days: 5,
  comment: 'Сделаю за пять дней, покажу похожие работы.',
  stages: null,
  status: 'active',
  created_at: '2026-11-24T10:00:00Z',
  updated_at: '2026-11-24T10:00:00Z',
  seller: { _id: 's1', user_name: 'petr', name: 'Пётр', surname: '', avatar: null, level: 'new', rating: 0, reviews_count: 0, orders_count: 0, online_status: false },
  project: { _id: 'p1', title: 'Лендинг', status: 'active', category: 'web', customer_id: 'c1' },
  ...over,
});
const page = (over: Partial<BidsPageData>): BidsPageData => ({ role: 'customer', bids: [bid()], next: null, total: 1, failed: false, ...over });

describe('MyBids', () => {
  it('gives a customer «Принять» on an active bid of an open project only', () => {
    const html = render(
      page({
        bids: [bid(), bid({ _id: 'b2', status: 'rejected' }), bid({ _id: 'b3', project: { ...bid().project, status: 'in_progress' } })],
        total: 3,
      }),
    );
    expect(html.match(/data-testid="accept-bid"/g)).toHaveLength(1);
    expect(html).toContain('Всего: 3');
    expect(html).toContain('Отклики исполнителей на ваши проекты.');
  });

  it('gives the customer no tab of withdrawn bids, the seller all five, the current one marked', () => {
    const customer = render(page({}));
    expect(customer).not.toContain('Отозванные');
    const seller = render(page({ role: 'seller' }), '/profile/bids?status=accepted');
    for (const label of ['Все', 'Активные', 'Принятые', 'Отклонённые', 'Отозванные']) expect(seller).toContain(`>${label}</a>`);
    expect(seller).toMatch(/href="\/profile\/bids\?status=accepted"[^>]*aria-current="page"|aria-current="page"[^>]*href="\/profile\/bids\?status=accepted"/);
    expect(seller).not.toContain('data-testid="accept-bid"');
    expect(seller).toContain('href="/projects/web/p1"');
  });

  it('says when there are none, pointing each side to where bids come from', () => {
    expect(render(page({ role: 'seller', bids: [], total: 0 }))).toContain('href="/projects"');
    const customer = render(page({ bids: [], total: 0 }));
    expect(customer).toContain('На ваши проекты пока никто не откликнулся.');
    expect(customer).toContain('href="/profile/items"');
  });

  it('says when the list failed, and offers more when there is a next page', () => {
    expect(render(page({ failed: true }))).toContain('Не удалось загрузить отклики. Обновите страницу.');
    expect(render(page({ next: 'c2' }))).toContain('Показать ещё');
    expect(render(page({}))).not.toContain('Показать ещё');
  });
});
