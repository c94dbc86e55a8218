import { describe, expect, it } from 'vitest';
import { LISTING_DEFAULT_LIMIT, SERVICE_SORTS } from '#contract/catalog-constants';
import type { ServicesQuery } from '../deps.ts';
import { statementName } from './plain-listing.ts';

const query = (over: Partial<ServicesQuery> = {}): ServicesQuery => ({ sort: 'popular', limit: LISTING_DEFAULT_LIMIT, ...over });

describe('the plain listing\'s statements on PostgreSQL', () => {
  it('the catalogue\'s own pages are named, one name per shape, 96 at most per connection', () => {
    const names = new Set<string>();
    for (const sort of SERVICE_SORTS)
      for (const where of sort === 'popular' ? [{}, { category: 'design' }, { sub: 'logo-design' }, { category: 'design', sub: 'logo-design' }] : [{}, { category: 'design' }])
        for (const days of [{}, { days_max: 3 }])
          for (const price of sort.startsWith('price_') ? [{}, { price_min: 500 }, { price_max: 900 }, { price_min: 500, price_max: 900 }] : [{}])
            for (const cursor of [undefined, 'c']) {
              const name = statementName(query({ sort, ...where, ...days, ...price, cursor }));
              expect(name).toMatch(/^services_list_[a-z_]+$/);
              names.add(name);
            }
    expect(names.size).toBe((4 * 2 + 2 * 2 * 2 + 2 * 2 * 2 * 4) * 2);
    expect(names.size).toBeLessThanOrEqual(96);
    // The values are parameters: another category is the same statement.
    expect(statementName(query({ category: 'texts' }))).toBe(statementName(query({ category: 'design' })));
    expect(statementName(query({ sort: 'price_asc', price_min: 100 }))).toBe(statementName(query({ sort: 'price_asc', price_min: 700 })));
  });

  it('a sub-category or a price range under another order, any other filter, or another page size, is sent unnamed', () => {
    for (const other of [{ tag: 'x' }, { price_min: 100 }, { price_max: 100 }, { level: 'pro' as const }, { online: '1' as const }, { limit: 5 }])
      expect(statementName(query({ category: 'design', ...other }))).toBe('');
    for (const sort of ['new', 'rating'] as const) expect(statementName(query({ sort, price_min: 100, price_max: 900 }))).toBe('');
    for (const sort of ['new', 'rating', 'price_asc', 'price_desc'] as const) expect(statementName(query({ sort, sub: 'logo-design' }))).toBe('');
    for (const sort of ['price_asc', 'price_desc'] as const) expect(statementName(query({ sort, price_min: 100, tag: 'x' }))).toBe('');
  });
});
