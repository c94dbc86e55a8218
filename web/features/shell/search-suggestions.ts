import type { CatalogueCategory } from '#contract/ssr';
import { foldSearch } from '#contract/catalog-constants';

// The header search box's suggestions: categories and sub-categories whose names have a word starting with
// the typed text (from the catalogue the page already has), then popular searches from the API.

export interface SuggestionOption {
  kind: 'category' | 'query';
  label: string;
  /** The parent category of a sub-category. */
  hint?: string;
  to: string;
}

/** Wait this long after the last key before asking the API. */
export const SUGGEST_DELAY_MS = 150;
const MAX_CATEGORIES = 4;

const wordStarts = (title: string, start: string) => foldSearch(title).split(/[\s,.\-–—/()]+/).some((word) => word.startsWith(start));

export function suggestionOptions(catalogue: CatalogueCategory[], typed: string, popular: string[]): SuggestionOption[] {
  const start = foldSearch(typed);
  const categories: SuggestionOption[] = [];
  if (start.length >= 2) {
    for (const c of catalogue) {
      if (wordStarts(c.title, start)) categories.push({ kind: 'category', label: c.title, to: `/services/${c.slug}` });
      for (const s of c.subs) {
        if (wordStarts(s.title, start)) categories.push({ kind: 'category', label: s.title, hint: c.title, to: `/services/${c.slug}?sub=${s.slug}` });
      }
    }
  }
  const queries = popular
    .filter((query) => query !== start)
    .map((query): SuggestionOption => ({ kind: 'query', label: query, to: `/services/all?q=${encodeURIComponent(query)}` }));
  return [...categories.slice(0, MAX_CATEGORIES), ...queries];
}
