import { describe, expect, it } from 'vitest';
import { fromAnswer, isListingPath, listingPath, restorePlan, type KeptListing } from './listing-data.ts';

const kept = (over: Partial<KeptListing> = {}): KeptListing => ({
  kind: 'projects',
  path: '/projects/all',
  category: null,
  filters: { sort: 'budget_desc' },
  search: '?sort=budget_desc',
  items: [],
  total: 0,
  exact: true,
  next: null,
  error: null,
  scrollY: 800,
  stale: false,
  ...over,
});
const url = (s: string) => new URL(s, 'http://x');

describe('listingPath', () => {
  it('gives the duplicate home addresses one path', () => {
    expect(listingPath('services', '/')).toBe('/services/all');
    expect(listingPath('services', '/services')).toBe('/services/all');
    expect(listingPath('services', '/services/all/')).toBe('/services/all');
    expect(listingPath('services', '/services/design')).toBe('/services/design');
    expect(listingPath('projects', '/projects')).toBe('/projects/all');
  });
  it('tells listing pages from item pages', () => {
    expect(isListingPath('services', '/')).toBe(true);
    expect(isListingPath('services', '/services/design')).toBe(true);
    expect(isListingPath('services', '/services/design/1f0c')).toBe(false);
    expect(isListingPath('projects', '/services/design')).toBe(false);
  });
});

describe('restorePlan (SPEC kept state)', () => {
  it('reuses the kept listing when the person comes back to the bare address', () => {
    expect(restorePlan('projects', url('/projects'), kept())).toEqual({ filters: { sort: 'budget_desc' }, reuse: true, addressed: false });
  });
  it('reuses it for its own address (back button)', () => {
    expect(restorePlan('projects', url('/projects?sort=budget_desc'), kept())?.reuse).toBe(true);
  });
  it('loads anew for other filters in the address or another category', () => {
    expect(restorePlan('projects', url('/projects?sort=bids'), kept())).toBeNull();
    expect(restorePlan('projects', url('/projects/design'), kept())).toBeNull();
    expect(restorePlan('projects', url('/projects'), undefined)).toBeNull();
  });
  it('reloads kept filters whose results never arrived', () => {
    expect(restorePlan('projects', url('/projects'), kept({ stale: true }))).toEqual({ filters: { sort: 'budget_desc' }, reuse: false, addressed: false });
    expect(restorePlan('projects', url('/projects?sort=budget_desc'), kept({ stale: true }))?.addressed).toBe(true);
  });
});

describe('fromAnswer', () => {
  it('reads a page with its cursor', () => {
    expect(fromAnswer(200, { status: 200, result: [{ _id: 'a' }] as never, total: 7, next: 'c2' })).toEqual({
      items: [{ _id: 'a' }],
      total: 7,
      exact: true,
      next: 'c2',
      error: null,
    });
    const estimated = fromAnswer(200, { status: 200, result: [] as never, total: 72_000, total_exact: false, next: null });
    expect(estimated).toMatchObject({ total: 72_000, exact: false });
  });
  it('turns failures into a message, the API one for bad requests', () => {
    expect(fromAnswer(400, { message: 'Неверная ссылка на страницу списка' }).error).toBe('Неверная ссылка на страницу списка');
    expect(fromAnswer(500, { message: 'internal' }).error).toMatch(/^Не удалось загрузить/);
    expect(fromAnswer(404, undefined).items).toEqual([]);
  });
});
