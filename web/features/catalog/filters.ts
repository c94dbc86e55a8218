import type { ReadName } from '#contract/routes';
import { LISTING_DEFAULT_LIMIT, MAX_PRICE, SELLER_LEVELS, type SellerLevel } from '#contract/catalog-constants';

// The listings' filters: how they read from a URL, how they are written back into one, and how they become the
// API's query. Prices are in rubles in the URL and in the form (what people type), kopecks for the API.

export type ListingKind = 'services' | 'projects' | 'freelancers';

export interface ListingFilters {
  sort: string;
  /** Full-text search. */
  q?: string;
  /** Sub-category slug (of the active category). */
  sub?: string;
  tag?: string;
  /** Rubles. */
  priceFrom?: number;
  priceTo?: number;
  /** Longest acceptable delivery, days. */
  daysMax?: number;
  level?: SellerLevel;
  online?: boolean;
}

export type FilterField = Exclude<keyof ListingFilters, 'sort'>;

export const SORT_OPTIONS: Record<ListingKind, readonly (readonly [string, string])[]> = {
  services: [
    ['popular', 'Популярные'],
    ['new', 'Новые'],
    ['price_asc', 'Сначала дешевле'],
    ['price_desc', 'Сначала дороже'],
    ['rating', 'По рейтингу'],
  ],
  projects: [
    ['new', 'Новые'],
    ['budget_desc', 'Дороже'],
    ['bids', 'Больше откликов'],
  ],
  freelancers: [
    ['rating', 'По рейтингу'],
    ['orders', 'По числу заказов'],
    ['new', 'Новые'],
  ],
};

export const defaultSort = (kind: ListingKind) => SORT_OPTIONS[kind][0]![0];

/** The filters each listing offers (its API accepts exactly these). */
export const LISTING_FIELDS: Record<ListingKind, readonly FilterField[]> = {
  services: ['q', 'sub', 'tag', 'priceFrom', 'priceTo', 'daysMax', 'level', 'online'],
  projects: ['q', 'sub', 'priceFrom', 'priceTo'],
  freelancers: ['level', 'online'],
};

/** URL parameter of each filter (projects speak of a budget, services of a price). */
export function urlKey(kind: ListingKind, field: FilterField): string {
  switch (field) {
    case 'priceFrom':
      return kind === 'projects' ? 'budget_from' : 'price_from';
    case 'priceTo':
      return kind === 'projects' ? 'budget_to' : 'price_to';
    case 'daysMax':
      return 'days';
    default:
      return field;
  }
}

/** The contract's endpoint of each listing (contract/routes.ts). */
export const LISTING_ENDPOINTS = {
  services: 'services.list',
  projects: 'projects.list',
  freelancers: 'people.freelancers',
} as const satisfies Record<ListingKind, ReadName>;

const MAX_RUBLES = MAX_PRICE / 100;
const SLUG_RE = /^[a-z0-9-]{1,60}$/;

/** A whole number of rubles typed by a person ("1 500", "1500", "1500,00"), or undefined. */
export function parseRubles(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const text = value.replace(/[\s\u00a0]/g, '').replace(/[,.]0*$/, '');
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= MAX_RUBLES ? n : MAX_RUBLES;
}

function parseDays(value: string | null): number | undefined {
  if (!value || !/^\d{1,3}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 365 ? n : undefined;
}

function parseText(value: string | null, max: number): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
}

/** Reads a listing's filters from its URL; anything unknown or malformed is ignored (never an error page). */
export function parseFilters(params: URLSearchParams, kind: ListingKind): ListingFilters {
  const fields = LISTING_FIELDS[kind];
  const get = (field: FilterField) => (fields.includes(field) ? params.get(urlKey(kind, field)) : null);
  const sort = params.get('sort');
  const filters: ListingFilters = {
    sort: SORT_OPTIONS[kind].some(([value]) => value === sort) ? sort! : defaultSort(kind),
  };
  const q = parseText(get('q'), 200);
  if (q) filters.q = q;
  const sub = get('sub');
  if (sub && SLUG_RE.test(sub)) filters.sub = sub;
  const tag = parseText(get('tag'), 40);
  if (tag) filters.tag = tag;
  let from = parseRubles(get('priceFrom'));
  let to = parseRubles(get('priceTo'));
  // "from 5 000 to 1 000" is meant the other way round.
  if (from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
  if (from) filters.priceFrom = from;
  if (to) filters.priceTo = to;
  const days = parseDays(get('daysMax'));
  if (days) filters.daysMax = days;
  const level = get('level');
  if ((SELLER_LEVELS as readonly string[]).includes(level ?? '')) filters.level = level as SellerLevel;
  const online = get('online');
  if (online === '1' || online === 'true') filters.online = true;
  return filters;
}

/** The URL query of filters: only what differs from the defaults, in a stable order ("" when nothing does). */
export function filtersToSearch(filters: ListingFilters, kind: ListingKind): string {
  const params = new URLSearchParams();
  for (const field of LISTING_FIELDS[kind]) {
    const value = filters[field];
    if (value === undefined || value === '' || value === false) continue;
    params.set(urlKey(kind, field), value === true ? '1' : String(value));
  }
  if (filters.sort !== defaultSort(kind)) params.set('sort', filters.sort);
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** The canonical query of a URL's filters (equal filters, equal strings). */
export const canonicalSearch = (url: URL, kind: ListingKind) => filtersToSearch(parseFilters(url.searchParams, kind), kind);

/** True when any filter besides the sort is set. */
export const hasActiveFilters = (filters: ListingFilters, kind: ListingKind) =>
  LISTING_FIELDS[kind].some((field) => filters[field] !== undefined && filters[field] !== false);

export type ApiQuery = Record<string, string | number | undefined>;

const kopecks = (rubles: number | undefined) => (rubles === undefined ? undefined : rubles * 100);

/** The API query of a listing page: category slug, filters (kopecks for money), sort, page size and cursor. */
export function toApiQuery(
  kind: ListingKind,
  filters: ListingFilters,
  category: string | null | undefined,
  page: { cursor?: string | null; limit?: number } = {},
): ApiQuery {
  const query: ApiQuery = { sort: filters.sort, limit: page.limit ?? LISTING_DEFAULT_LIMIT };
  if (category) query.category = category;
  if (page.cursor) query.cursor = page.cursor;
  const fields = LISTING_FIELDS[kind];
  const has = (field: FilterField) => fields.includes(field) && filters[field] !== undefined;
  if (has('q')) query.q = filters.q;
  if (has('sub') && category) query.sub = filters.sub;
  if (has('tag')) query.tag = filters.tag;
  const [min, max] = kind === 'projects' ? ['budget_min', 'budget_max'] : ['price_min', 'price_max'];
  if (has('priceFrom')) query[min] = kopecks(filters.priceFrom);
  if (has('priceTo')) query[max] = kopecks(filters.priceTo);
  if (has('daysMax')) query.days_max = filters.daysMax;
  if (has('level')) query.level = filters.level;
  if (has('online') && filters.online) query.online = '1';
  return query;
}
