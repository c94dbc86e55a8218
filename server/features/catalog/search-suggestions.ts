import { and, desc, gte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { searchQueries } from '../../db/schema/catalog.ts';
import { foldSearch } from '#contract/catalog';
import { escapeLike, searchText } from './listing.ts';
import { Tally } from './tally.ts';

/** A query is offered to others once this many searches for it found something (one person cannot plant one). */
export const MIN_SEARCHES = 3;
/** Longer texts are not queries people retype. */
const MAX_QUERY_LENGTH = 60;
const SUGGESTIONS = 6;

/**
 * A search text as suggestions keep it: lower case, ё as е, single spaces; null for what is not worth keeping
 * (no letter or digit, or too long).
 */
export function normalizeSearch(q: string | undefined | null): string | null {
  const text = searchText(q);
  if (!text) return null;
  const normal = foldSearch(text);
  return normal.length >= 2 && normal.length <= MAX_QUERY_LENGTH ? normal : null;
}

/**
 * Popular searches for the header's suggestions. Searches that found something are counted in memory and
 * written in batches (Tally); suggestions are the most searched queries that start with the typed text.
 */
export class SearchSuggestions {
  private readonly searches: Tally;

  constructor(
    private readonly db: Db,
    log: Pick<Logger, 'warn'>,
  ) {
    this.searches = new Tally(async (batch) => {
      const rows = JSON.stringify(batch.map(([query, n]) => ({ query, n })));
      await db.execute(sql`
        insert into ${searchQueries} (query, searches)
        select v.query, v.n from jsonb_to_recordset(${rows}::jsonb) as v(query text, n int)
        on conflict (query) do update set searches = ${searchQueries.searches} + excluded.searches, updated_at = now()`);
    }, log);
  }

  /** Counts a search of the public listing that found something. */
  record(q: string | undefined): void {
    const query = normalizeSearch(q);
    if (query) this.searches.add(query);
  }

  /** The popular queries starting with `prefix` (all popular ones for an empty prefix), most searched first. */
  async popular(prefix: string | undefined): Promise<string[]> {
    const start = prefix ? normalizeSearch(prefix) : null;
    if (prefix && !start) return [];
    const rows = await this.db
      .select({ query: searchQueries.query })
      .from(searchQueries)
      .where(and(gte(searchQueries.searches, MIN_SEARCHES), start ? sql`${searchQueries.query} like ${`${escapeLike(start)}%`}` : undefined))
      .orderBy(desc(searchQueries.searches), searchQueries.query)
      .limit(SUGGESTIONS);
    return rows.map((r) => r.query);
  }

  /** Writes the pending counts now (on shutdown, and in tests). */
  flush(): Promise<void> {
    return this.searches.flush();
  }
}
