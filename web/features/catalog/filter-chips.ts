import { SELLER_LEVEL_TITLES } from '#contract/catalog-constants';
import { formatRubles } from '#contract/money-format';
import { LISTING_FIELDS, type FilterField, type ListingFilters, type ListingKind } from './filters.ts';

// What only the listing's page shows of the filters (chips, the delivery choices): with the page's code, not with the
// route's (filters.ts reads and writes the URL, which the route's loader needs).

export const DELIVERY_OPTIONS = [
  [1, 'До 1 дня'],
  [3, 'До 3 дней'],
  [7, 'До 7 дней'],
  [14, 'До 14 дней'],
  [30, 'До 30 дней'],
] as const;

export interface FilterChip {
  key: string;
  label: string;
  /** The filters without this one. */
  without: ListingFilters;
}

/** Whole rubles of the price filter (the URL's unit) as the site writes money. */
const rubles = (n: number) => formatRubles(n * 100);

/** The active filters as removable chips (the sheet is closed on small screens, the chips stay in sight). */
export function filterChips(filters: ListingFilters, kind: ListingKind, subs: readonly { slug: string; title: string }[] = []): FilterChip[] {
  const chips: FilterChip[] = [];
  const fields = LISTING_FIELDS[kind];
  const drop = (...keys: FilterField[]) => {
    const next = { ...filters };
    for (const k of keys) delete next[k];
    return next;
  };
  if (fields.includes('q') && filters.q) chips.push({ key: 'q', label: `«${filters.q}»`, without: drop('q') });
  if (fields.includes('sub') && filters.sub) {
    chips.push({ key: 'sub', label: subs.find((s) => s.slug === filters.sub)?.title ?? filters.sub, without: drop('sub') });
  }
  if (fields.includes('tag') && filters.tag) chips.push({ key: 'tag', label: `#${filters.tag}`, without: drop('tag') });
  if (fields.includes('priceFrom') && (filters.priceFrom || filters.priceTo)) {
    const { priceFrom: from, priceTo: to } = filters;
    const label = from && to ? `${rubles(from).slice(0, -'\u00a0руб.'.length)}–${rubles(to)}` : from ? `от ${rubles(from)}` : `до ${rubles(to!)}`;
    chips.push({ key: 'price', label, without: drop('priceFrom', 'priceTo') });
  }
  if (fields.includes('daysMax') && filters.daysMax) {
    chips.push({ key: 'days', label: `Срок до ${filters.daysMax}\u00a0дн.`, without: drop('daysMax') });
  }
  if (fields.includes('level') && filters.level) chips.push({ key: 'level', label: SELLER_LEVEL_TITLES[filters.level], without: drop('level') });
  if (fields.includes('online') && filters.online) chips.push({ key: 'online', label: 'В сети', without: drop('online') });
  return chips;
}
