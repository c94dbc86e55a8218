import { describe, expect, it } from 'vitest';
import { LISTING_DEFAULT_LIMIT, SERVICE_SORTS } from '#contract/catalog-constants';
import type { ServicesQuery } from '../deps.ts';
import { statementName } from './plain-listing.ts';

const query = (over: Partial<ServicesQuery> = {}): ServicesQuery => ({ sort: 'popular', limit: LISTING_DEFAULT_LIMIT, ...over });

describe('the plain listing\'s statements on PostgreSQL', () => {
  it('the catalogue\'s own pages are named, one name per shape, 40 at most per connection', () => {
    const names = new Set<string>();
    for (const sort of SERVICE_SORTS)
      for (const where of [{}, { category: 'design' }, { sub: 'logo-design' }, { category: 'design', sub: 'logo-design' }])
        for (const cursor of [undefined, 'c']) {
          const name = statementName(query({ sort, ...where, cursor }));
          expect(name).toMatch(/^services_list_[a-z_]+$/);
          names.add(name);
        }
    expect(names.size).toBe(SERVICE_SORTS.length * 4 * 2);
    expect(names.size).toBeLessThanOrEqual(40);
    // The values are parameters: another category is the same statement.
    expect(statementName(query({ category: 'texts' }))).toBe(statementName(query({ category: 'design' })));
  });

  it('any other filter, or another page size, is sent unnamed: planned for its values, no plan kept per combination', () => {
    for (const other of [{ tag: 'x' }, { price_min: 100 }, { price_max: 100 }, { days_max: 3 }, { level: 'pro' as const }, { online: '1' as const }, { limit: 5 }])
      expect(statementName(query({ category: 'design', ...other }))).toBe('');
  });
});
