import type { ApiError } from '#contract/api';
import type { EndpointInput } from '#contract/endpoint';
import type { Endpoints } from '#contract/endpoints';
import type { SsrContext } from '#contract/ssr';
import { api } from '../../lib/api.ts';
import { categoryParam } from './category-param.ts';
import {
  canonicalSearch,
  LISTING_ENDPOINTS,
  filtersToSearch,
  parseFilters,
  toApiQuery,
  type ApiQuery,
  type ListingFilters,
  type ListingKind,
} from './filters.ts';
import type { ListingAnswer, ListingItem } from './types.ts';
import { trimEnd } from '#contract/text';

// A listing's data: the first page rendered on the server (crawlers read it), further pages fetched by the
// browser, and SPEC's kept page state — the filters, loaded pages and scroll position of each listing, kept per
// tab under its cache key (services, projects, freelancers) while the person visits other pages.

export interface ListingData<T extends ListingItem = ListingItem> {
  kind: ListingKind;
  /** The listing's own address without filters (see listingPath). */
  path: string;
  /** `subs`: the first few sub-categories' titles, for the page's description. */
  category: { slug: string; title: string; subs: { title: string }[] } | null;
  filters: ListingFilters;
  /** filtersToSearch(filters): "" or "?sort=new&…". */
  search: string;
  items: T[];
  total: number;
  /** False when `total` is an estimate ("около 72 000"). */
  exact: boolean;
  next: string | null;
  /** A Russian message when the list could not be loaded. */
  error: string | null;
  /** The search found nothing and these are the results of this corrected query (services, ADR 028). */
  corrected?: string;
  /** Nothing matched every word of the search: these match some of them (ADR 044). */
  partial?: boolean;
  /** Set when the page came back from the kept state: the scroll position to return to. */
  restored?: { scrollY: number };
}

type ListingEndpoint = (typeof LISTING_ENDPOINTS)[ListingKind];
/**
 * toApiQuery builds each listing's query from the filters its endpoint accepts (LISTING_FIELDS, parsed and
 * bounded from the address); the endpoint's schema checks it again.
 */
const listingInput = (query: ApiQuery) => ({ query }) as EndpointInput<Endpoints[ListingEndpoint]>;

export const LOAD_ERROR = 'Не удалось загрузить список. Обновите страницу через минуту.';

export const BASE_PATHS: Record<ListingKind, string> = { services: '/services', projects: '/projects', freelancers: '/freelancers' };

/**
 * The canonical address of a listing's category page: /, /services and /services/all are one page
 * ("/services/all"); "/projects" is "/projects/all".
 */
export function listingPath(kind: ListingKind, pathname: string): string {
  const path = trimEnd(pathname, '/') || pathname.slice(0, 1);
  const base = BASE_PATHS[kind];
  if (path === base || (kind === 'services' && path === '/')) return `${base}/all`;
  return path;
}

/** True for the listing pages of a kind (not for an item's page below them). */
export function isListingPath(kind: ListingKind, pathname: string): boolean {
  const path = listingPath(kind, pathname);
  return new RegExp(`^${BASE_PATHS[kind]}/[^/]+$`).test(path);
}

export function fromAnswer<T extends ListingItem>(
  status: number,
  body: ListingAnswer<T> | { message?: string } | undefined,
): Pick<ListingData<T>, 'items' | 'total' | 'exact' | 'next' | 'error'> {
  if (status === 200 && body && 'result' in body && Array.isArray(body.result)) {
    return {
      items: body.result,
      total: body.total ?? body.result.length,
      exact: body.total_exact ?? true,
      next: body.next ?? null,
      error: null,
    };
  }
  const message = status === 400 && body && 'message' in body && body.message ? body.message : LOAD_ERROR;
  return { items: [], total: 0, exact: true, next: null, error: message };
}

/** How a search that found nothing as typed was answered (see ListingData.corrected and .partial). */
function correctedOf(status: number, body: unknown): { corrected?: string; partial?: boolean } {
  if (status !== 200 || !body || typeof body !== 'object') return {};
  const corrected = 'corrected' in body ? body.corrected : undefined;
  return {
    ...(typeof corrected === 'string' && corrected ? { corrected } : {}),
    ...('partial' in body && body.partial === true ? { partial: true } : {}),
  };
}

/** Server loader of a listing: validates the category (404), reads the filters, renders the first page. */
export async function loadListing<T extends ListingItem>(
  kind: ListingKind,
  slug: string | undefined,
  url: URL,
  context: SsrContext,
): Promise<ListingData<T>> {
  const category = await categoryParam(slug, context.catalogue);
  const filters = parseFilters(url.searchParams, kind);
  // A sub-category belongs to the category on the page; any other one is ignored.
  if (filters.sub && !category?.subs.some((s) => s.slug === filters.sub)) delete filters.sub;
  const answer = await context.read(LISTING_ENDPOINTS[kind], listingInput(toApiQuery(kind, filters, category?.slug)));
  return {
    kind,
    path: listingPath(kind, url.pathname),
    category: category && { slug: category.slug, title: category.title, subs: category.subs.slice(0, 4).map((s) => ({ title: s.title })) },
    filters,
    search: filtersToSearch(filters, kind),
    ...fromAnswer(answer.status, answer.body as ListingAnswer<T> | ApiError),
    ...correctedOf(answer.status, answer.body),
  };
}

/** A page of a listing fetched by the browser (the next page, or a kept listing whose load was cut short). */
export async function fetchListing<T extends ListingItem>(
  kind: ListingKind,
  category: string | null | undefined,
  filters: ListingFilters,
  cursor?: string | null,
): Promise<Pick<ListingData<T>, 'items' | 'total' | 'exact' | 'next' | 'error'>> {
  try {
    const answer = await api.read(LISTING_ENDPOINTS[kind], listingInput(toApiQuery(kind, filters, category, { cursor })));
    return fromAnswer(200, answer as ListingAnswer<T>);
  } catch (err) {
    const e = err as { status?: number; message?: string };
    return fromAnswer(e.status ?? 0, { message: e.message });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Kept state (SPEC §2 route options: cache keys "services", "projects", "freelancers").
// ---------------------------------------------------------------------------------------------------------

export type CacheKey = 'services' | 'projects' | 'freelancers';

export interface KeptListing extends ListingData {
  scrollY: number;
  /** The filters were changed and their results are not loaded yet. */
  stale: boolean;
}

const kept = new Map<CacheKey, KeptListing>();

export const listingStore = {
  get: (key: CacheKey) => kept.get(key),
  set: (key: CacheKey, value: KeptListing) => void kept.set(key, value),
  /** Updates the kept listing if it is still the one at `path`. */
  patch(key: CacheKey, path: string, patch: Partial<KeptListing>) {
    const current = kept.get(key);
    if (current && current.path === path) kept.set(key, { ...current, ...patch });
  },
  clear: () => kept.clear(),
};

/**
 * How a navigation to `url` uses the kept listing: null when it does not (another category, or other filters
 * written in the address); otherwise the kept filters, reused as they are unless their results are stale. An
 * address without filters ("/projects" from the header) means "the listing as I left it".
 */
export function restorePlan(kind: ListingKind, url: URL, keptListing: KeptListing | undefined) {
  if (!keptListing || keptListing.kind !== kind || keptListing.path !== listingPath(kind, url.pathname)) return null;
  const search = canonicalSearch(url, kind);
  if (search !== '' && search !== keptListing.search) return null;
  return { filters: keptListing.filters, reuse: !keptListing.stale, addressed: search === keptListing.search };
}

/**
 * The client loader's part of a listing: the kept listing when the person comes back to it, else the server
 * loader (which renders the address's filters).
 */
export async function clientListing<T extends ListingItem>(
  kind: ListingKind,
  url: URL,
  serverLoader: () => Promise<ListingData<T>>,
): Promise<ListingData<T>> {
  const keptListing = listingStore.get(kind);
  const plan = restorePlan(kind, url, keptListing);
  if (!plan || !keptListing) return serverLoader();
  if (plan.reuse) {
    const { scrollY, stale: _stale, ...data } = keptListing;
    return { ...(data as ListingData<T>), restored: { scrollY } };
  }
  if (plan.addressed) return serverLoader();
  const page = await fetchListing<T>(kind, keptListing.category?.slug, plan.filters);
  const { scrollY: _scrollY, stale: _stale, restored: _restored, ...base } = keptListing;
  return { ...(base as ListingData<T>), ...page };
}
