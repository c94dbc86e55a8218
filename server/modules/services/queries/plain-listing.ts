import { and, eq, sql } from 'drizzle-orm';
import { services } from '../schema.ts';
import { categoryRefs } from '../../lookups/index.ts';
import { statement } from '../../../db/prepared.ts';
import { cursorPosition, keysetAfter, orderBy, page, timestampKey } from '../../../platform/listing/listing.ts';
import { listingTotal } from '../../../platform/listing/totals.ts';
import { LISTING_DEFAULT_LIMIT } from '#contract/catalog-constants';
import type { ServiceCatalogDeps, ServicesQuery } from '../deps.ts';
import { people, publicPersonColumns } from '../../users/index.ts';
import { cardsOfRowsWithSellers } from './cards.ts';
import { cardColumns, listedTag, publicFilter, sortPlan, type ListingFilter, type ServiceListing } from './listing-plan.ts';

// The public listing without a search (the catalogue's pages, its filters, every later page): the most frequent read
// of the marketplace, as statements built once per shape (ADR 070). drizzle building the page's SQL anew was a fifth
// of a listing's CPU at a million services (bench/README.md).

/** The cards' categories (their slug is the card's). */
const categoryRef = categoryRefs('category');
/** The cards' sellers, joined to the page once it is cut. */
const cardSeller = people('card_seller');

/** The filters whose values are parameters of a shape's statement (level and online change its text instead). */
const VALUED = ['category', 'sub', 'tag', 'price_min', 'price_max', 'days_max'] as const;
/**
 * Filters that leave a page's best plan the same whatever their values: the category leads every order's index, and
 * no index serves the days. A shape whose filters are among these, at the default page size, is a named statement on
 * PostgreSQL, planned once per connection (Database.plannedOnce); so is the sub-category when sorted by popularity
 * (it leads that order's index), and the price range when sorted by price (it bounds the walk of the price index):
 * 96 at most. Any other shape is built once too but sent unnamed, planned for its values each time: a rare
 * sub-category under another order is read from its own index and sorted, a common one by walking the order's; a
 * price range under another order is read from the price index or not by how narrow it is; a tag from the tags'
 * index or not by how rare it is; and a connection does not keep a plan for each of the thousands of combinations.
 */
const NAMED = new Set<string>(['category', 'days_max']);
const PRICE_RANGE = new Set<string>(['price_min', 'price_max']);
/** Shapes kept built, at most (every combination of filters and page sizes is some 300,000). */
const KEPT_SHAPES = 500;

/**
 * The page's LIMIT written into the statement: with `limit $n` PostgreSQL costs a generic plan for a tenth of the
 * table and never prefers it, so a named statement was planned again at every run, half of the database's CPU for a
 * listing at a million services (bench/README.md). A number from the validated query, so safe as SQL text; drizzle's
 * `limit()` takes it as an SQL chunk.
 */
const literalLimit = (n: number) => sql.raw(String(Math.trunc(n))) as unknown as number;

const param = sql.placeholder;

/** The name of a listing's statement on PostgreSQL, or '' for one sent unnamed (see NAMED). */
export function statementName(query: ServicesQuery): string {
  const valued = VALUED.filter((k) => query[k] !== undefined);
  const byPrice = query.sort === 'price_asc' || query.sort === 'price_desc';
  const planless = (k: string) => NAMED.has(k) || (k === 'sub' && query.sort === 'popular') || (byPrice && PRICE_RANGE.has(k));
  const named = valued.every(planless) && !query.level && !query.online && query.limit === LISTING_DEFAULT_LIMIT;
  return named ? ['services_list', query.sort, ...valued, ...(query.cursor ? ['after'] : [])].join('_') : '';
}

function shapeStatement(query: ServicesQuery) {
  // An empty cursor is a first page, as everywhere (`cursor=` in a link).
  const after = Boolean(query.cursor);
  const filter: ListingFilter = { level: query.level, online: query.online };
  for (const k of VALUED) if (query[k] !== undefined) filter[k] = param(k);
  const plan = sortPlan(query.sort, null);
  const name = statementName(query);
  return statement((db) => {
    const rows = db
      .select({
        ...cardColumns(services),
        publishedKey: timestampKey(services.publishedAt).as('published_key'),
        categorySlug: sql<string>`${categoryRef.slug}`.as('category_slug'),
        // The page's order, for the join with its sellers to keep (the same keys: the index walked gives it).
        position: sql<number>`row_number() over (order by ${sql.join(orderBy(plan.keys), sql`, `)})`.as('position'),
      })
      .from(services)
      .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
      .where(
        and(
          ...publicFilter(filter, null),
          // A named statement's later pages keep one plan (see keysetAfter); an unnamed one is planned for its values.
          after ? keysetAfter(plan.keys, plan.keys.map((_, i) => param(`after${i}`)), { planOnce: name !== '' }) : undefined,
        ),
      )
      .orderBy(...orderBy(plan.keys))
      .limit(literalLimit(query.limit + 1))
      .as('page');
    // The page's sellers in the same statement, joined to its rows once they are cut: a second statement cost a
    // round trip, a fifth of a filtered listing's throughput at a million services (ADR 070, session 48).
    return db
      .select({
        ...cardColumns(rows),
        publishedKey: rows.publishedKey,
        rank: sql<number>`0`,
        categorySlug: rows.categorySlug,
        seller: publicPersonColumns(cardSeller),
      })
      .from(rows)
      .innerJoin(cardSeller, eq(cardSeller.id, rows.sellerId))
      .orderBy(rows.position)
      .prepare(name);
  });
}

const statementsByShape = new Map<string, ReturnType<typeof shapeStatement>>();

/** The statement of a listing's shape: which filters it has, its sort, a first page or a later one. */
function statementOf(query: ServicesQuery, key: string) {
  let made = statementsByShape.get(key);
  if (!made) {
    if (statementsByShape.size >= KEPT_SHAPES) statementsByShape.clear();
    statementsByShape.set(key, (made = shapeStatement(query)));
  }
  return made;
}

/** One page of the public listing without a search, in the query's sort (see listServices). */
export async function plainPage(deps: Pick<ServiceCatalogDeps, 'db' | 'plannedOnce' | 'realtime'>, query: ServicesQuery): Promise<ServiceListing> {
  const { db } = deps;
  const plan = sortPlan(query.sort, null);
  const values: Record<string, unknown> = {};
  for (const k of VALUED) if (query[k] !== undefined) values[k] = k === 'tag' ? listedTag(query.tag!) : query[k];
  const filters = `${Object.keys(values).join(',')}|${query.level ?? ''}|${query.online ? 'online' : ''}`;
  const key = `${query.sort}|${query.cursor ? 'after' : ''}|${query.limit}|${filters}`;
  const position = query.cursor ? cursorPosition(query.cursor, query.sort, plan.keys) : [];
  // A named statement runs where it is planned once; an unnamed one is planned for its values wherever it runs.
  const runOn = statementName(query) ? (deps.plannedOnce ?? db) : db;
  const [rows, total] = await Promise.all([
    statementOf(query, key)(runOn).execute({ ...values, ...Object.fromEntries(position.map((v, i) => [`after${i}`, v])) }),
    // The total does not depend on the sort or the page: one per filter and its values.
    listingTotal(
      db,
      { key: `services_list|${filters}|${JSON.stringify(values)}`, rows: () => db.select({ one: sql`1` }).from(services).where(and(...publicFilter(query, null))).$dynamic() },
      query.cursor,
    ),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (row) => [query.sort, ...plan.values(row)]);
  return { ...(await cardsOfRowsWithSellers(deps, kept)), total: total.total, total_exact: total.exact, next };
}
