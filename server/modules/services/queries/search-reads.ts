import { and, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { union, type SelectedFields, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.ts';
import { services } from '../schema.ts';
import { categoryRefs } from '../../lookups/index.ts';
import { loneWordQuery, type PartialQuery } from '../../../platform/listing/search.ts';
import { cursorPosition, keysetAfter, matches, orderBy, page, searchQuery, searchRank, timestampKey, type SortKey } from '../../../platform/listing/listing.ts';
import { estimateRows } from '../../../platform/listing/totals.ts';
import type { ServiceCatalogDeps, ServicesQuery } from '../deps.ts';
import { publicService } from '../policy.ts';
import { listingCards } from './cards.ts';
import {
  cardColumns,
  FEW_LIMIT,
  NO_SUCH_WORD,
  PARTIAL,
  PARTIAL_LIMIT,
  publicFilter,
  RANK_LIMIT,
  type ListingRow,
  type ServiceListing,
} from './listing-plan.ts';

// The bounded reads of a search: matches read from the search index (at most a few thousand) and sorted, where
// walking the popularity index would read far more (ADR 028), and the partial matches of a search (ADR 044).

/** The cards' categories (their slug is the card's). */
const categoryRef = categoryRefs('category');

/**
 * The cards of a page cut from a bounded read's matches (`cut`: their ids and what orders them), read by primary
 * key once the page is cut, with `extra` columns of the cut, in `order` (a join keeps none of its own).
 */
function cardsOfCut<Cut extends SelectedFields & { id: SQLWrapper }, Extra extends SelectedFields>(
  db: Db,
  cut: SubqueryWithSelection<Cut, string>,
  extra: Extra,
  order: SQL[],
) {
  return db
    .select({ ...cardColumns(services), publishedKey: timestampKey(services.publishedAt), categorySlug: categoryRef.slug, ...extra })
    .from(cut as SubqueryWithSelection<SelectedFields, string>)
    .innerJoin(services, eq(services.id, cut.id as never))
    .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
    .orderBy(...order);
}

/**
 * A page of the partial matches of a search that found nothing as a whole (ADR 044): services matching any of
 * its words, the most words first, then by rank and popularity, as one keyset order (cursor `partial`).
 * Bounded work: each word's matches are read from the search index, at most its share of PARTIAL_LIMIT, and
 * scored as they are read (the row is at hand then: reading the ids first and the rows again by id cost a third
 * of the query at a million services), then merged and sorted together. The candidates carry only what orders them
 * (merging a few thousand whole cards cost a tenth of the query); the page's cards are read by id once it is cut.
 */
export async function partialPage(deps: Pick<ServiceCatalogDeps, 'db' | 'realtime'>, query: ServicesQuery, partial: PartialQuery): Promise<ServiceListing> {
  const { db } = deps;
  const base = publicFilter(query, null);
  const share = Math.ceil(PARTIAL_LIMIT / partial.words.length);
  const hits = sql.join(
    partial.words.map((word) => sql`(${services.search} @@ ${searchQuery(word)})::int`),
    sql` + `,
  );
  const read = (word: string) =>
    db
      .select({
        id: services.id,
        popularity: services.popularity,
        hits: sql<number>`${hits}`.as('hits'),
        rank: searchRank(services.search, partial.any).as('rank'),
      })
      .from(services)
      .where(and(...base, matches(services.search, [word, ...partial.excluded].join(' & '))))
      .limit(share);
  // A service matching several words is read by each of them, alike: `union` keeps it once.
  const [first, second, ...rest] = partial.words.map(read);
  const candidates = union(first!, second!, ...rest).as('candidates');
  const found = db
    .select({ ...candidates._.selectedFields, matches: sql<number>`(count(*) over ())::int`.as('matches') })
    .from(candidates)
    .as('found');
  const keysOf = (from: Record<'hits' | 'rank' | 'popularity' | 'id', SQLWrapper>): SortKey[] => [
    { expr: from.hits, dir: 'desc', kind: 'int4' },
    { expr: from.rank, dir: 'desc', kind: 'int4' },
    { expr: from.popularity, dir: 'desc', kind: 'int4' },
    { expr: from.id, dir: 'desc', kind: 'uuid' },
  ];
  const keys = keysOf(found);
  const position = query.cursor ? keysetAfter(keys, cursorPosition(query.cursor, PARTIAL, keys)) : undefined;
  const cut = db
    .select(found._.selectedFields)
    .from(found)
    .where(position)
    .orderBy(...orderBy(keys))
    .limit(query.limit + 1)
    .as('cut');
  const rows = await cardsOfCut(db, cut, { hits: cut.hits, rank: cut.rank, matches: cut.matches }, orderBy(keysOf(cut)));
  const { rows: kept, next } = page(rows, query.limit, (r) => [PARTIAL, r.hits, r.rank, r.popularity, r.id]);
  const matched = rows[0]?.matches ?? 0;
  return { ...(await listingCards(deps, kept)), total: matched, total_exact: matched < share, next, partial: true };
}

/**
 * A word is looked for among services of any state until this many are found (see deadWords). Not fewer: the fewer
 * asked for, the cheaper the planner thinks a walk of the table until they turn up, and it took that walk for a word
 * its statistics lack once updates had grown the search index's pending list (its scan costed 1,514 instead of 110).
 * With 10, a word that is nowhere took 1.8–2.4 s at a million services; a walk to a thousand costs 50 times more.
 */
const PRESENCE_PROBE = 1_000;

/**
 * The words of `words` (a search's plainWords) that no service's document can match: stop words, which the dictionary
 * drops from a query, and those of `unknown` (no title, tag or category title has them: see unknownWords) that no
 * document of any state has. One statement; each word's look-up is planned for its value, so that the planner takes
 * the search index for a word its statistics lack (nothing to read when no document has it) and the table's first rows
 * for a common one (see PRESENCE_PROBE).
 */
export async function deadWords(db: Db, words: readonly string[], unknown: readonly string[]): Promise<Set<string>> {
  if (!words.length) return new Set();
  const probes = words.map((word) => {
    const query = searchQuery(loneWordQuery(word));
    const nowhere = unknown.includes(word)
      ? sql` or (select count(*) from (select 1 from ${services} where ${services.search} @@ ${query} limit ${sql.raw(String(PRESENCE_PROBE))}) found) = 0`
      : sql``;
    return sql`select ${word}::text as word, (numnode(${query}) = 0${nowhere}) as dead`;
  });
  const result = (await db.execute(sql.join(probes, sql` union all `))) as unknown as { rows: { word: string; dead: boolean }[] };
  return new Set(result.rows.filter((row) => row.dead).map((row) => row.word));
}

/**
 * Services of any state whose document matches `q`, counted up to `cap + 1`: an upper bound of the public
 * matches. A bitmap scan of the GIN index, which stops at cap + 1 rows and needs no heap page of an
 * all-visible table: cheap however common the words, and exact for a rare or missing one.
 */
export async function matchesUpTo(db: Db, q: string, cap: number): Promise<number> {
  const inner = db.select({ one: sql`1` }).from(services).where(matches(services.search, q)).limit(cap + 1).as('m');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
  return row?.n ?? 0;
}

/**
 * A page of the matches of `where` (a search) in popularity order, read from the search index and sorted, when
 * there are at most FEW_LIMIT of them (after `position`), with their number; null when there are more. Bounded
 * work whatever the planner expects: one bitmap scan, FEW_LIMIT + 1 rows at most (see walkFrom). With `rankBy`
 * (the first page), at most RANK_LIMIT matches are ranked by it instead, as the relevance sort orders them.
 */
export async function popularAmongFew(
  db: Db,
  where: SQL,
  position: SQL | undefined,
  limit: number,
  rankBy: string | null,
): Promise<{ rows: ListingRow[]; matches: number } | null> {
  // The matches carry only what orders them (with their document, to rank): counting and sorting a few thousand
  // whole cards cost a sixth of the query at a million services. The page's cards are read by id once it is cut.
  const found = db
    .select({ id: services.id, popularity: services.popularity, search: services.search })
    .from(services)
    .where(position ? and(where, position) : where)
    .limit(FEW_LIMIT + 1)
    .as('found');
  const count = sql`count(*) over ()`;
  const rank = rankBy ? sql<number>`case when ${count} <= ${RANK_LIMIT} then ${searchRank(found.search, rankBy)} else 0 end` : sql<number>`0`;
  const cut = db
    .select({ id: found.id, popularity: found.popularity, rank: rank.as('rank'), matches: sql<number>`${count}::int`.as('matches') })
    .from(found)
    .orderBy(...(rankBy ? [desc(rank)] : []), desc(found.popularity), desc(found.id))
    .limit(limit + 1)
    .as('cut');
  const rows = await cardsOfCut(db, cut, { rank: cut.rank, matches: cut.matches }, [
    ...(rankBy ? [desc(cut.rank)] : []),
    desc(cut.popularity),
    desc(cut.id),
  ]);
  const n = rows[0]?.matches ?? 0;
  return n > FEW_LIMIT ? null : { rows, matches: n };
}

/** What the planner expects a search for a word its statistics lack to find (see walkFrom). */
export function rareEstimate(db: Db): Promise<number> {
  return estimateRows(db, db.select({ one: sql`1` }).from(services).where(and(publicService(), matches(services.search, NO_SUCH_WORD))).$dynamic());
}
