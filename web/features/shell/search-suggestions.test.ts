import { describe, expect, it } from 'vitest';
import type { CatalogueCategory } from '#contract/ssr';
import { suggestionOptions } from './search-suggestions.ts';

const catalogue = [
  {
    slug: 'design',
    title: 'Дизайн',
    subs: [
      { slug: 'logo-design', title: 'Логотипы' },
      { slug: 'presentations', title: 'Презентации' },
    ],
  },
  { slug: 'development', title: 'Разработка и IT', subs: [{ slug: 'landing', title: 'Лендинги' }] },
] satisfies CatalogueCategory[];

describe('suggestionOptions', () => {
  it('offers categories and sub-categories by the beginning of a word, then popular searches', () => {
    expect(suggestionOptions(catalogue, 'ЛОГ', ['логотип', 'логотип для кофейни'])).toEqual([
      { kind: 'category', label: 'Логотипы', hint: 'Дизайн', to: '/services/design?sub=logo-design' },
      { kind: 'query', label: 'логотип', to: '/services/all?q=%D0%BB%D0%BE%D0%B3%D0%BE%D1%82%D0%B8%D0%BF' },
      { kind: 'query', label: 'логотип для кофейни', to: `/services/all?q=${encodeURIComponent('логотип для кофейни')}` },
    ]);
    expect(suggestionOptions(catalogue, 'it', [])).toEqual([{ kind: 'category', label: 'Разработка и IT', to: '/services/development' }]);
    expect(suggestionOptions(catalogue, 'зайн', [])).toEqual([]);
  });

  it('needs two letters for categories, and does not repeat the typed text as a search', () => {
    expect(suggestionOptions(catalogue, 'л', ['лендинг'])).toEqual([{ kind: 'query', label: 'лендинг', to: '/services/all?q=%D0%BB%D0%B5%D0%BD%D0%B4%D0%B8%D0%BD%D0%B3' }]);
    expect(suggestionOptions(catalogue, 'лендинг', ['лендинг'])).toEqual([{ kind: 'category', label: 'Лендинги', hint: 'Разработка и IT', to: '/services/development?sub=landing' }]);
    expect(suggestionOptions(catalogue, '', ['логотип']).map((o) => o.label)).toEqual(['логотип']);
  });
});
