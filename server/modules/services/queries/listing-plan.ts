import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { services } from '../schema.ts';
import { categoryRefs, subCategoryRefs } from '../../lookups/index.ts';
import { people } from '../../users/index.ts';
import { cursorPosition, keysetAfter, levelCondition, matches, onlineCondition, searchRank, type CursorValue, type SortKey } from '../../../platform/listing/listing.ts';
import { EXACT_TOTAL_LIMIT } from '../../../platform/listing/totals.ts';
import type { ServiceCard } from '#contract/catalog';
import type { ServicesQuery } from '../deps.ts';
import { publicService } from '../policy.ts';
import { normalizeTags } from '../text.ts';

// The plan of the public listing's reads: its orders and cursors, its filter, the columns of a card, and the
// bounds that choose between ranking a search and walking the popularity index.

/**
 * A page of the public listing; `corrected`: the corrected query whose results these are (nothing was found);
 * `partial`: nothing matched every word, and these match some of them (ADR 044).
 */
export interface ServiceListing {
  result: ServiceCard[];
  total: number;
  total_exact: boolean;
  next: string | null;
  corrected?: string;
  partial?: true;
}

/**
 * The orders of the public listing; each ends with the id, so it is total and a cursor is a position in it.
 * `relevance` is what "popular" becomes when there is a search (see listServices).
 */
export type ListingSort = ServicesQuery['sort'] | 'relevance';

const CARD_KEYS = ['id', 'title', 'images', 'price', 'days', 'rating', 'reviewsCount', 'popularity', 'sellerId'] as const;
type CardKey = (typeof CARD_KEYS)[number];

/**
 * The columns a listing card is read from, the one definition for every read of cards: of `services` itself, or
 * of a subquery over it (the bounded reads of a search select from one).
 */
export function cardColumns<T extends Record<CardKey, unknown>>(from: T): Pick<T, CardKey> {
  return Object.fromEntries(CARD_KEYS.map((key) => [key, from[key]])) as Pick<T, CardKey>;
}

/** A card of the listing as its query reads it (the cursor's keys among it). */
export interface ListingRow {
  id: string;
  title: string;
  images: string[];
  days: number;
  reviewsCount: number;
  categorySlug: string;
  sellerId: string;
  price: number;
  popularity: number;
  rating: number;
  publishedKey: string | null;
  rank: number;
}

export interface SortPlan<R> {
  keys: SortKey[];
  /** The cursor values of a row, one per key. */
  values: (row: R) => CursorValue[];
}

/** The orders of the public listing, each a total order ending with the id (exported for the cursor tests). */
export function sortPlan(sort: ListingSort, q: string | null): SortPlan<ListingRow> {
  const id = (dir: 'asc' | 'desc'): SortKey => ({ expr: services.id, dir, kind: 'uuid' });
  const by = (expr: SortKey['expr'], dir: 'asc' | 'desc', value: (r: ListingRow) => CursorValue): SortPlan<ListingRow> => ({
    keys: [{ expr, dir, kind: 'int4' }, id(dir)],
    values: (r) => [value(r), r.id],
  });
  switch (sort) {
    case 'popular':
      return by(services.popularity, 'desc', (r) => r.popularity);
    case 'new':
      return {
        keys: [{ expr: services.publishedAt, dir: 'desc', kind: 'timestamptz' }, id('desc')],
        values: (r) => [r.publishedKey, r.id],
      };
    case 'price_asc':
      return by(services.price, 'asc', (r) => r.price);
    case 'price_desc': {
      // The price indexes ascend (price, id): walked backwards. Ordered NULLS LAST, as other descending keys are,
      // no index would serve it and a page sorted every service of the catalogue (1.2 s at a million).
      const plan = by(services.price, 'desc', (r) => r.price);
      return { ...plan, keys: plan.keys.map((key) => ({ ...key, backwards: true as const })) };
    }
    case 'rating':
      return by(services.rating, 'desc', (r) => r.rating);
    case 'relevance':
      return {
        keys: [
          { expr: searchRank(services.search, q ?? ''), dir: 'desc', kind: 'int4' },
          { expr: services.popularity, dir: 'desc', kind: 'int4' },
          id('desc'),
        ],
        values: (r) => [r.rank, r.popularity, r.id],
      };
  }
}

/** Cursor of the admin queue: the moderation queue is first come, first served; other lists newest first. */
export function adminSortPlan(oldestFirst: boolean): SortPlan<{ id: string; updatedKey: string }> {
  const dir = oldestFirst ? 'asc' : 'desc';
  return {
    keys: [
      { expr: services.updatedAt, dir, kind: 'timestamptz' },
      { expr: services.id, dir, kind: 'uuid' },
    ],
    values: (r) => [r.updatedKey, r.id],
  };
}

/** The position after which a page starts; the cursor names its sort, so one made for another is refused. */
export function after(plan: SortPlan<never>, sort: string, cursor: string | undefined): SQL | undefined {
  return cursor ? keysetAfter(plan.keys, cursorPosition(cursor, sort, plan.keys)) : undefined;
}

/**
 * A search with the default sort is ranked when the planner expects at most this many matches: ranking scores
 * every match, so its cost grows with them, while popularity order is an index walk. The same bound as an
 * exact total: a set small enough to count is small enough to rank.
 */
export const RANK_LIMIT = EXACT_TOTAL_LIMIT;

/**
 * A search in popularity order whose planner estimate is below walkFrom reads its matches from the search index,
 * at most FEW_LIMIT of them, and sorts them (popularAmongFew), instead of walking the popularity index: a walk for
 * 25 rare matches reads tens of thousands of rows (ADR 028). The estimate of one word is the statistics' own
 * frequency; that of several words is a product of theirs, often several times too high for words that seldom
 * meet (4,600 expected, 913 found), so it is trusted up to a higher bound. And never near what the planner
 * expects of a word its statistics do not have (`rare`: a rare word and a missing one get the same guess, a
 * fraction of the rarest frequent word's, which grows with the table): such a search may find next to nothing.
 */
export const FEW_LIMIT = 5_000;
export const walkFrom = (tsQuery: string, rare: number) => Math.max(tsQuery.includes('&') ? 20_000 : FEW_LIMIT, 1.5 * rare);
/** A word no service has, whose estimate is the planner's guess for any word its statistics lack. */
export const NO_SUCH_WORD = 'ъъъъъъъъ';

/**
 * The partial matches of a search are read word by word, at most PARTIAL_LIMIT in all (each word its share):
 * a rare word, the telling one, is read whole; a common one is cut (ADR 044). The cursor's sort name.
 */
export const PARTIAL_LIMIT = FEW_LIMIT;
export const PARTIAL = 'partial';

// The category, sub-category and sellers of the listing's conditions (subqueries and semi-joins).
const categoryRef = categoryRefs('category');
const subRef = subCategoryRefs('sub');
const sellerRef = people('seller');

/** A filter's values as the query gives them, or placeholders for them in a statement built once (plain-listing.ts). */
export type ListingFilter = {
  [K in 'category' | 'sub' | 'tag' | 'price_min' | 'price_max' | 'days_max']?: ServicesQuery[K] | Placeholder;
} & Pick<ServicesQuery, 'level' | 'online'>;

/** The tag a listing filters by, as services store their tags. */
export const listedTag = (tag: string) => normalizeTags([tag])[0] ?? '';

/** The conditions of the public listing on `services` alone (sellers' conditions are semi-joins). */
export function publicFilter(query: ListingFilter, q: string | null): SQL[] {
  const where: SQL[] = [publicService()];
  if (query.category !== undefined)
    where.push(sql`${services.categoryId} = (select ${categoryRef.id} from ${categoryRef} where ${categoryRef.slug} = ${query.category})`);
  if (query.sub !== undefined)
    where.push(
      sql`${services.subCategoryId} = (select ${subRef.id} from ${subRef} where ${subRef.slug} = ${query.sub})`,
    );
  if (query.tag !== undefined) where.push(sql`${services.tags} @> array[${typeof query.tag === 'string' ? listedTag(query.tag) : query.tag}]::text[]`);
  if (q) where.push(matches(services.search, q));
  if (query.price_min !== undefined) where.push(sql`${services.price} >= ${query.price_min}`);
  if (query.price_max !== undefined) where.push(sql`${services.price} <= ${query.price_max}`);
  if (query.days_max !== undefined) where.push(sql`${services.days} <= ${query.days_max}`);
  const sellersWhere = (condition: SQL) => sql`${services.sellerId} in (select ${sellerRef.id} from ${sellerRef} where ${condition})`;
  if (query.level)
    where.push(
      sellersWhere(
        levelCondition(query.level, { completedOrders: sellerRef.completedOrders, rating: sellerRef.rating, lostDisputeAt: sellerRef.lostDisputeAt }),
      ),
    );
  if (query.online) where.push(sellersWhere(onlineCondition(sellerRef.lastSeenAt)));
  return where;
}
