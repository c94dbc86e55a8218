import { describe, expect, it } from 'vitest';
import { BID_STATUSES } from '#contract/money';
import { acceptable, adminBidsQuery, BID_TABS, bidTabs, liveBids, myBidsQuery, statusOf, withCursor } from './bid-queries.ts';

const id = '0b6c5d2e-8a4f-4c3b-9d1e-2f7a6b5c4d3e';
const url = (query: string) => new URL(`https://podryad.example/admin/bids${query}`);

describe('statusOf', () => {
  it.each(BID_STATUSES.map((s) => [s] as const))('reads the status %s', (status) => {
    expect(statusOf(url(`?status=${status}`))).toBe(status);
  });

  it.each(['', '?status=', '?status=ACTIVE', '?status=deleted', '?state=active'])('ignores %j', (query) => {
    expect(statusOf(url(query))).toBeUndefined();
  });
});

describe('adminBidsQuery', () => {
  it('passes a known status, the project and seller ids and the cursor', () => {
    expect(adminBidsQuery(url(`?status=rejected&project=${id}&seller=${id.toUpperCase()}&cursor=abc`))).toEqual({
      limit: 30,
      status: 'rejected',
      project: id,
      seller: id.toUpperCase(),
      cursor: 'abc',
    });
  });

  it('leaves out what is not an id or a status, and an empty cursor', () => {
    expect(adminBidsQuery(url(`?status=all&project=42&seller=${id}x&cursor=`))).toEqual({ limit: 30 });
    expect(adminBidsQuery(url(''))).toEqual({ limit: 30 });
  });
});

describe('withCursor', () => {
  it('keeps the filters and replaces the cursor', () => {
    expect(withCursor(new URLSearchParams('status=active&project=p1&cursor=old'), 'new')).toBe('?status=active&project=p1&cursor=new');
    expect(withCursor(new URLSearchParams(''), 'a b')).toBe('?cursor=a+b');
  });

  it('leaves the page’s own parameters as they were', () => {
    const params = new URLSearchParams('status=active');
    withCursor(params, 'c');
    expect(params.toString()).toBe('status=active');
  });
});

describe('myBidsQuery', () => {
  it('passes a known status and the cursor, 20 to a page', () => {
    expect(myBidsQuery(url('?status=accepted&cursor=c2'))).toEqual({ limit: 20, status: 'accepted', cursor: 'c2' });
    expect(myBidsQuery(url('?status=nope'))).toEqual({ limit: 20 });
  });
});

describe('the bids one may act on', () => {
  it('gives the seller every tab, the customer all but the withdrawn', () => {
    expect(bidTabs('seller')).toEqual(BID_TABS);
    expect(bidTabs('customer').map((t) => t.label)).toEqual(['Все', 'Активные', 'Принятые', 'Отклонённые']);
  });

  it.each([
    ['active', 'active', true],
    ['active', 'in_progress', false],
    ['active', 'closed', false],
    ['accepted', 'active', false],
    ['rejected', 'active', false],
    ['withdrawn', 'active', false],
  ] as const)('a bid %s on a project %s may be accepted: %s', (status, project, may) => {
    expect(acceptable({ status, project: { status: project } })).toBe(may);
  });

  it('shows a project’s customer every bid but the withdrawn, in order', () => {
    const bids = [{ status: 'active' }, { status: 'withdrawn' }, { status: 'rejected' }, { status: 'accepted' }] as const;
    expect(liveBids([...bids]).map((b) => b.status)).toEqual(['active', 'rejected', 'accepted']);
  });
});
