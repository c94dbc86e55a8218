import { describe, expect, it } from 'vitest';
import { PAGE_MESSAGES } from '#contract/page-messages';
import { brandOf, DEFAULT_DESCRIPTION, descriptionOf, errorMeta, pageMeta } from './meta.ts';

const root = (config?: { brand?: string; description?: string }) => ({ id: 'root', data: config ? { config } : {} });
const page = { id: 'routes/page', data: { config: { brand: 'Не тот' } } };
/** What the router hands an error boundary for a thrown response (an ErrorResponse). */
const routeError = (status: number) => ({ status, statusText: 'x', internal: false, data: 'Page Not Found' });

describe('brandOf and descriptionOf', () => {
  it('read the operator’s settings from the root’s data', () => {
    const matches = [root({ brand: 'Артель', description: 'Мастера рядом' }), page];
    expect(brandOf(matches)).toBe('Артель');
    expect(descriptionOf(matches)).toBe('Мастера рядом');
  });

  it.each([
    ['no matches', []],
    ['no root', [page]],
    ['a root without data', [{ id: 'root' }]],
    ['a root without config', [root()]],
    ['an undefined match', [undefined, root()]],
  ])('fall back with %s', (_case, matches) => {
    expect(brandOf(matches)).toBe('Подряд');
    expect(descriptionOf(matches)).toBe(DEFAULT_DESCRIPTION);
  });

  it('take the default for an empty description, but keep an empty brand as set', () => {
    expect(descriptionOf([root({ brand: 'X', description: '' })])).toBe('Биржа услуг');
    expect(brandOf([root({ brand: '' })])).toBe('');
  });
});

describe('pageMeta', () => {
  it('titles the page "{title} - {brand}" with the default description (SPEC §1)', () => {
    expect(pageMeta([root({ brand: 'Подряд' })], 'Заказы')).toEqual([
      { title: 'Заказы - Подряд' },
      { name: 'description', content: 'Биржа услуг' },
      { property: 'og:title', content: 'Заказы - Подряд' },
      { property: 'og:description', content: 'Биржа услуг' },
    ]);
  });

  it('uses the page’s own description when it has one', () => {
    const meta = pageMeta([root({ brand: 'Артель', description: 'Общее' })], 'Логотип', 'Логотип за 3 дня');
    expect(meta).toContainEqual({ name: 'description', content: 'Логотип за 3 дня' });
    expect(meta).toContainEqual({ property: 'og:description', content: 'Логотип за 3 дня' });
    expect(meta[0]).toEqual({ title: 'Логотип - Артель' });
  });

  it('falls back to the operator’s description for an empty one', () => {
    expect(pageMeta([root({ description: 'Общее' })], 'T', '')).toContainEqual({ name: 'description', content: 'Общее' });
  });
});

describe('errorMeta', () => {
  it('titles a 404 "not found" and keeps it out of search engines', () => {
    const meta = errorMeta([root()], routeError(404));
    expect(meta[0]).toEqual({ title: `${PAGE_MESSAGES.notFoundBreadcrumb} - Подряд` });
    expect(meta.at(-1)).toEqual({ name: 'robots', content: 'noindex' });
  });

  it.each([
    ['a thrown Error', new Error('boom')],
    ['nothing', undefined],
    ['a string', 'oops'],
    ['a 500 response', routeError(500)],
    ['a 403 response', routeError(403)],
  ])('titles %s as the unexpected error', (_case, error) => {
    const meta = errorMeta([root()], error);
    expect(meta[0]).toEqual({ title: `${PAGE_MESSAGES.unexpected} - Подряд` });
    expect(meta).toContainEqual({ name: 'robots', content: 'noindex' });
  });
});
