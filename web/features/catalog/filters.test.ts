import { describe, expect, it } from 'vitest';
import {
  canonicalSearch,
  defaultSort,
  filtersToSearch,
  hasActiveFilters,
  parseFilters,
  parseRubles,
  toApiQuery,
} from './filters.ts';
import { filterChips } from './filter-chips.ts';

const params = (s: string) => new URLSearchParams(s);

describe('parseRubles', () => {
  it('reads what people type', () => {
    expect(parseRubles('1500')).toBe(1500);
    expect(parseRubles('1 500')).toBe(1500);
    expect(parseRubles('1\u00a0500')).toBe(1500);
    expect(parseRubles('1500,00')).toBe(1500);
    expect(parseRubles('0')).toBe(0);
  });
  it('ignores what is not a whole amount and caps at the maximum price', () => {
    expect(parseRubles('')).toBeUndefined();
    expect(parseRubles(null)).toBeUndefined();
    expect(parseRubles('abc')).toBeUndefined();
    expect(parseRubles('-5')).toBeUndefined();
    expect(parseRubles('12,5')).toBeUndefined();
    expect(parseRubles('999999999')).toBe(1_000_000);
  });
});

describe('parseFilters', () => {
  it('reads every services filter from the address', () => {
    expect(
      parseFilters(params('q=логотип&sub=logo-design&tag=figma&price_from=1000&price_to=5000&days=3&level=pro&online=1&sort=new'), 'services'),
    ).toEqual({ sort: 'new', q: 'логотип', sub: 'logo-design', tag: 'figma', priceFrom: 1000, priceTo: 5000, daysMax: 3, level: 'pro', online: true });
  });

  it('falls back to the default sort and ignores malformed values', () => {
    expect(parseFilters(params('sort=cheapest&level=god&days=0&online=yes&sub=Bad Slug&price_from=x'), 'services')).toEqual({
      sort: 'popular',
    });
    expect(parseFilters(params(''), 'projects')).toEqual({ sort: 'new' });
    expect(parseFilters(params(''), 'freelancers')).toEqual({ sort: 'rating' });
  });

  it('swaps a reversed range and drops zero bounds', () => {
    expect(parseFilters(params('price_from=5000&price_to=1000'), 'services')).toMatchObject({ priceFrom: 1000, priceTo: 5000 });
    const zero = parseFilters(params('price_from=0&price_to=0'), 'services');
    expect(zero.priceFrom).toBeUndefined();
    expect(zero.priceTo).toBeUndefined();
  });

  it('reads only the filters of the listing, under its own names', () => {
    expect(parseFilters(params('budget_from=1000&budget_to=3000&price_from=1&level=pro&q=сайт'), 'projects')).toEqual({
      sort: 'new',
      q: 'сайт',
      priceFrom: 1000,
      priceTo: 3000,
    });
    expect(parseFilters(params('q=x&level=advanced&online=true&sort=orders'), 'freelancers')).toEqual({
      sort: 'orders',
      level: 'advanced',
      online: true,
    });
  });

  it('collapses whitespace of searches', () => {
    expect(parseFilters(params('q=  лого   тип '), 'services').q).toBe('лого тип');
    expect(parseFilters(params('q=%20%20'), 'services').q).toBeUndefined();
  });
});

describe('filtersToSearch', () => {
  it('writes only what differs from the defaults, in a stable order', () => {
    expect(filtersToSearch({ sort: 'popular' }, 'services')).toBe('');
    expect(filtersToSearch({ sort: 'new', online: true, q: 'лого', priceTo: 5000 }, 'services')).toBe(
      `?q=${encodeURIComponent('лого')}&price_to=5000&online=1&sort=new`,
    );
    expect(filtersToSearch({ sort: 'new', priceFrom: 1000 }, 'projects')).toBe('?budget_from=1000');
    expect(filtersToSearch({ sort: 'rating', online: false }, 'freelancers')).toBe('');
  });

  it('round-trips through parseFilters', () => {
    const filters = { sort: 'price_asc', sub: 'logo-design', tag: 'figma', priceFrom: 500, daysMax: 7, level: 'new' as const };
    expect(parseFilters(params(filtersToSearch(filters, 'services').slice(1)), 'services')).toEqual(filters);
  });

  it('gives equal filters equal canonical queries', () => {
    const a = canonicalSearch(new URL('http://x/services/all?sort=new&online=true&q=%20лого'), 'services');
    const b = canonicalSearch(new URL('http://x/services/all?q=лого&online=1&sort=new&junk=1'), 'services');
    expect(a).toBe(b);
    expect(canonicalSearch(new URL('http://x/?sort=popular&referralCode=abc'), 'services')).toBe('');
  });
});

describe('toApiQuery', () => {
  it('turns rubles into kopecks and names the API parameters', () => {
    expect(
      toApiQuery('services', { sort: 'new', priceFrom: 1000, priceTo: 5000, daysMax: 3, level: 'pro', online: true, tag: 'figma', q: 'лого', sub: 'logo-design' }, 'design'),
    ).toEqual({
      sort: 'new',
      limit: 24,
      category: 'design',
      q: 'лого',
      sub: 'logo-design',
      tag: 'figma',
      price_min: 100_000,
      price_max: 500_000,
      days_max: 3,
      level: 'pro',
      online: '1',
    });
  });

  it('speaks of a budget for projects and adds the cursor', () => {
    expect(toApiQuery('projects', { sort: 'bids', priceTo: 25_000 }, null, { cursor: 'abc', limit: 10 })).toEqual({
      sort: 'bids',
      limit: 10,
      cursor: 'abc',
      budget_max: 2_500_000,
    });
  });

  it('sends no sub-category without a category, and nothing a listing does not know', () => {
    expect(toApiQuery('services', { sort: 'popular', sub: 'logo-design' }, undefined)).toEqual({ sort: 'popular', limit: 24 });
    expect(toApiQuery('freelancers', { sort: 'rating', q: 'x', priceFrom: 1, online: true }, 'design')).toEqual({
      sort: 'rating',
      limit: 24,
      category: 'design',
      online: '1',
    });
  });
});

describe('hasActiveFilters / filterChips', () => {
  it('does not count the sort as a filter', () => {
    expect(hasActiveFilters({ sort: 'new' }, 'services')).toBe(false);
    expect(hasActiveFilters({ sort: defaultSort('services'), online: true }, 'services')).toBe(true);
  });

  it('lists the active filters with what remains without each', () => {
    const filters = { sort: 'new', q: 'лого', sub: 'logo-design', priceFrom: 1000, priceTo: 5000, online: true };
    const chips = filterChips(filters, 'services', [{ slug: 'logo-design', title: 'Логотипы' }]);
    expect(chips.map((c) => c.label)).toEqual(['«лого»', 'Логотипы', '1\u00a0000–5\u00a0000\u00a0руб.', 'В сети']);
    expect(chips.find((c) => c.key === 'price')!.without).toEqual({ sort: 'new', q: 'лого', sub: 'logo-design', online: true });
    expect(filterChips({ sort: 'new', priceTo: 700 }, 'projects')[0]!.label).toBe('до 700\u00a0руб.');
  });
});
