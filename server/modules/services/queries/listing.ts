import { and, eq, sql } from 'drizzle-orm';
import { services } from '../schema.ts';
import { categoryRefs } from '../../lookups/index.ts';
import {
  correctedQuery,
  lastWordCompletions,
  loneWordQuery,
  partialQuery,
  plainWords,
  synonymIndex,
  tsQueryText,
  unknownWords,
  type PartialQuery,
} from '../../../platform/listing/search.ts';
import type { Db } from '../../../db/client.ts';
import { badCursor, cursorTag, orderBy, page, retagCursor, searchRank, searchText, timestampKey } from '../../../platform/listing/listing.ts';
import { estimateRows, listingTotal } from '../../../platform/listing/totals.ts';
import type { ServiceCatalogDeps, ServicesQuery } from '../deps.ts';
import { listingCards } from './cards.ts';
import { after, cardColumns, PARTIAL, publicFilter, RANK_LIMIT, sortPlan, walkFrom, type ListingRow, type ListingSort, type ServiceListing } from './listing-plan.ts';
import { plainPage } from './plain-listing.ts';
import { deadWords, matchesUpTo, partialPage, popularAmongFew, rareEstimate } from './search-reads.ts';

type ListingDeps = Pick<ServiceCatalogDeps, 'db' | 'plannedOnce' | 'realtime' | 'synonyms'>;

/** The cards' categories (their slug is the card's). */
const categoryRef = categoryRefs('category');

/**
 * One page of the public listing.
 *
 * Search: `q` filters by `search @@ to_tsquery('russian', tsQueryText(q))` (stemmed: "логотипа" finds
 * "логотип"; synonyms and the last word as a prefix, see search.ts; a query that finds nothing is corrected,
 * see ADR 028). With the default sort, popular, a search is ranked — rank desc, then popularity, then id, the
 * cursor carrying the rank (an integer, see searchRank) — when the planner expects at most RANK_LIMIT
 * matches. Ranking reads every match, so a query that matches more (a common word over a million services)
 * is ordered by popularity among the matches instead, which an index walk answers at once
 * (docs/decisions/006). The cursor names the order it was made for, so later pages keep it. An explicit
 * other sort keeps its own order among the matches.
 *
 * Total: see listingTotal — exact for small sets, the planner's estimate for big ones.
 *
 * Online: sellers active within ONLINE_WINDOW_MS (users.last_seen_at); see listing.ts.
 */
export async function listServices(deps: ListingDeps, query: ServicesQuery): Promise<ServiceListing> {
  const { db } = deps;
  const groups = (await deps.synonyms?.()) ?? [];
  const text = searchText(query.q);
  if (!text) return listPage(deps, query, null);
  const index = synonymIndex(groups);
  // Each read below waits only for what it needs: the words checked against the vocabulary and the last word's
  // completions together, and the correction of a search with an unknown word while its search runs (such a
  // search often finds nothing; when it finds something, the correction's one lookup is not used).
  const [unknown, completions] = await Promise.all([unknownWords(db, text, index), lastWordCompletions(db, text)]);
  const laterPartial = query.cursor ? isPartialTag(cursorTag(query.cursor)) : false;
  const correcting = unknown.length && (!query.cursor || laterPartial) ? correctedQuery(db, text, unknown) : Promise.resolve(null);
  // Awaited below, or not needed: the search's own error is the request's.
  correcting.catch(() => {});
  // The words no service has, which partial matches leave out (ADR 044, session 52): a word found nowhere beside a
  // common one left a partial read of the common word alone, its tens of thousands of matches taken from the search
  // index and sorted. Only a search with an unknown word can have one; asked once its search found nothing, beside
  // its correction, since a word found in descriptions costs the look-up more than one found nowhere.
  const deadOnes = () => (unknown.length ? deadWords(db, plainWords(text), unknown) : Promise.resolve(new Set<string>()));
  // A later page of partial matches: the same text, corrected the same way, read the same way.
  if (laterPartial) {
    const [dead, corrected] = await Promise.all([deadOnes(), correcting]);
    const words = await withCorrection(db, { text, completions }, corrected);
    const partial = partialQuery(words.text, index, words.completions, dead);
    if (!partial) throw badCursor();
    return partialAnswer(deps, query, partial, unknown);
  }
  const found = await listPage(deps, query, tsQueryText(text, index, completions), unknown.length > 0);
  if (found.result.length || query.cursor) return found;
  const dying = deadOnes();
  dying.catch(() => {});
  // Nothing found: the query with mistyped words replaced by the catalogue's nearest ones, if that finds
  // something (ADR 028). Later pages ask with the same text and are corrected the same way.
  const corrected = await correcting;
  const words = await withCorrection(db, { text, completions }, corrected);
  if (corrected) {
    const retried = await listPage(deps, query, tsQueryText(words.text, index, words.completions));
    if (retried.result.length) return { ...retried, corrected };
  }
  // Still nothing: the services matching the most of its words (ADR 044).
  const partial = partialQuery(words.text, index, words.completions, await dying);
  if (!partial) return found;
  const some = await partialAnswer(deps, query, partial, unknown);
  return some.result.length ? some : found;
}

/**
 * The cursor of partial matches: `partial` when several words are read together (partialPage), `partial:<sort>`
 * when one is left, a page of its own search in that sort.
 */
const ONE_WORD = `${PARTIAL}:`;
const isOneWordTag = (tag: unknown): tag is string => typeof tag === 'string' && tag.startsWith(ONE_WORD);
const isPartialTag = (tag: unknown) => tag === PARTIAL || isOneWordTag(tag);

/**
 * The partial matches of a search (ADR 044). Of several words, those matching the most of them (partialPage). Of one
 * word (the others are found nowhere), that word's own search, in the order asked, as a search of it alone would
 * be: every match has the one word, and its search walks the popularity index where the partial read took the
 * word's every match from the search index and sorted them. `unknown`: see unknownWords.
 */
async function partialAnswer(deps: ListingDeps, query: ServicesQuery, partial: PartialQuery, unknown: readonly string[]): Promise<ServiceListing> {
  const tag = query.cursor ? cursorTag(query.cursor) : undefined;
  if (partial.words.length > 1) {
    if (tag !== undefined && tag !== PARTIAL) throw badCursor();
    return partialPage(deps, query, partial);
  }
  const [word] = partial.words as [string];
  let cursor = query.cursor;
  if (cursor) {
    if (!isOneWordTag(tag)) throw badCursor();
    cursor = retagCursor(cursor, tag.slice(ONE_WORD.length));
  }
  const lone = unknown.some((w) => loneWordQuery(w) === word);
  const found = await listPage(deps, { ...query, cursor }, [word, ...partial.excluded].join(' & '), lone);
  return { ...found, next: found.next && retagCursor(found.next, `${ONE_WORD}${String(cursorTag(found.next))}`), partial: true };
}

/** A search's text and its last word's completions (lastWordCompletions). */
interface SearchWords {
  text: string;
  completions: string[];
}

/** The words a search goes on with: its correction, if it has one (and its last word's completions), else its own. */
async function withCorrection(db: Db, words: SearchWords, corrected: string | null): Promise<SearchWords> {
  return corrected ? { text: corrected, completions: await lastWordCompletions(db, corrected) } : words;
}

/** The sort a search in popularity order takes, and what is known of its matches on the way. */
interface SearchOrder {
  sort: ListingSort;
  estimate?: number;
  /** The matches in popularity order when there are few (popularAmongFew), and how many there are. */
  few: { rows: ListingRow[]; matches: number } | null;
  counted?: number;
}

/**
 * How a search with the default sort is ordered: a later page keeps its cursor's order; a first page is ranked
 * when the matches are few enough (RANK_LIMIT), else in popularity order. `unknown`: the search has a word that
 * no title, tag or category title has (see unknownWords).
 */
async function searchOrder(deps: ListingDeps, query: ServicesQuery, q: string, unknown: boolean): Promise<SearchOrder> {
  const { db } = deps;
  const filter = and(...publicFilter(query, q))!;
  const matching = db.select({ one: sql`1` }).from(services).where(filter).$dynamic();
  if (query.cursor) {
    const sort = cursorTag(query.cursor) === 'relevance' ? 'relevance' : 'popular';
    const walk = sort === 'popular' && (await estimateRows(db, matching)) < walkFrom(q, await rareEstimate(db));
    return { sort, few: walk ? await popularAmongFew(db, filter, after(sortPlan(sort, q), sort, query.cursor), query.limit, null) : null };
  }
  let estimate = await estimateRows(db, matching);
  let few: SearchOrder['few'] = null;
  let counted: number | undefined;
  if (estimate > RANK_LIMIT && estimate < walkFrom(q, await rareEstimate(db))) {
    few = await popularAmongFew(db, filter, undefined, query.limit, q);
    // Counted: a total known exactly, and few enough to be ranked (they were, in the same query).
    if (few) estimate = counted = few.matches;
  } else if (estimate > RANK_LIMIT && unknown) {
    // The planner cannot tell a rare word from a missing one (both get a fraction of its rarest common
    // word, thousands of rows at a million): a walk of the popularity index for 25 matches that do not
    // exist reads the whole index (seconds). Its guess of a big set is checked against the search index,
    // which answers a small set at once (ADR 028). Checked when a word is one no title, tag or category has
    // (a typo, a description's word): a query of known words finds its matches on the way down the index.
    const n = await matchesUpTo(db, q, RANK_LIMIT);
    if (n <= RANK_LIMIT) estimate = n;
  }
  return { sort: estimate <= RANK_LIMIT ? 'relevance' : 'popular', estimate, few, counted };
}

/** `unknown`: the search has a word that no title, tag or category title has (see unknownWords). */
async function listPage(deps: ListingDeps, query: ServicesQuery, q: string | null, unknown = false): Promise<ServiceListing> {
  if (!q) return plainPage(deps, query);
  const { db } = deps;
  const filter = and(...publicFilter(query, q))!;
  // The filter is on services alone (sellers' conditions are semi-joins), so a page is sorted and cut
  // before its sellers are read, and only the page's sellers are.
  const matching = db.select({ one: sql`1` }).from(services).where(filter).$dynamic();
  const { sort, estimate, few, counted }: SearchOrder =
    q && query.sort === 'popular' ? await searchOrder(deps, query, q, unknown) : { sort: query.sort, few: null };
  const plan = sortPlan(sort, q);
  const position = after(plan, sort, query.cursor);

  const [rows, total] = await Promise.all([
    few?.rows ??
      db
        .select({
          ...cardColumns(services),
          publishedKey: timestampKey(services.publishedAt),
          rank: sort === 'relevance' ? searchRank(services.search, q ?? '') : sql<number>`0`,
          categorySlug: categoryRef.slug,
        })
        .from(services)
        .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
        .where(position ? and(filter, position) : filter)
        .orderBy(...orderBy(plan.keys))
        .limit(query.limit + 1),
    listingTotal(db, matching, query.cursor, estimate, counted),
  ]);

  const { rows: kept, next } = page(rows, query.limit, (row) => [sort, ...plan.values(row)]);
  return { ...(await listingCards(deps, kept)), total: total.total, total_exact: total.exact, next };
}
