import { and, desc, gte, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { searchQueries } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { badRequest } from '../../lib/http.ts';
import { audit } from '../../platform/audit.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import { CATALOG_MESSAGES, foldSearch, type AdminSearchSuggestion } from '#contract/catalog';
import { escapeLike, searchText } from '../../platform/listing/listing.ts';
import { Tally } from '../../platform/listing/tally.ts';
import { SeenToday } from '../../platform/listing/visitors.ts';

/**
 * A query is offered to others once this many searchers found something with it: distinct visitors, each
 * counted once a day (see visitorOf), so one person cannot plant a suggestion by searching three times.
 */
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
 * Popular searches for the header's suggestions. Searches that found something are counted in memory, once a
 * day per searcher, and written in batches (Tally); suggestions are the most searched queries that start with
 * the typed text, but for those an admin removed.
 */
export class SearchSuggestions {
  private readonly searches: Tally;
  private readonly seen: SeenToday;

  constructor(
    private readonly db: Db,
    /** The platform's transactions (a hidden suggestion and its audit row commit together). */
    private readonly withTx: WithTx,
    log: Pick<Logger, 'warn'>,
    seen?: SeenToday,
    /**
     * Which of these queries find something in the public catalogue now (ServiceCatalog.findsSomething): a
     * suggestion must (ADR 028). Every query does when absent.
     */
    private readonly finds?: (queries: string[]) => Promise<Set<string>>,
  ) {
    this.seen = seen ?? new SeenToday(null, log);
    this.searches = new Tally(async (batch) => {
      const rows = JSON.stringify(batch.map(([query, n]) => ({ query, n })));
      await db.execute(sql`
        insert into ${searchQueries} (query, searches)
        select v.query, v.n from jsonb_to_recordset(${rows}::jsonb) as v(query text, n int)
        on conflict (query) do update set searches = ${searchQueries.searches} + excluded.searches, updated_at = now()`);
    }, log);
  }

  /** Counts a search of the public listing that found something, once a day per visitor (see visitorOf). */
  async record(q: string | undefined, visitor: string): Promise<void> {
    const query = normalizeSearch(q);
    if (query && (await this.seen.first(`search:${query}:${visitor}`))) this.searches.add(query);
  }

  /**
   * The popular queries starting with `prefix` (all popular ones for an empty prefix), most searched first; only
   * those that find something today (a query popular once may find nothing after its services went away).
   */
  async popular(prefix: string | undefined): Promise<string[]> {
    const start = prefix ? normalizeSearch(prefix) : null;
    if (prefix && !start) return [];
    const rows = await this.db
      .select({ query: searchQueries.query })
      .from(searchQueries)
      .where(and(gte(searchQueries.searches, MIN_SEARCHES), isNull(searchQueries.hiddenAt), this.startsWith(start)))
      .orderBy(desc(searchQueries.searches), searchQueries.query)
      .limit(SUGGESTIONS * 2);
    const queries = rows.map((r) => r.query);
    if (!this.finds) return queries.slice(0, SUGGESTIONS);
    const finding = await this.finds(queries);
    return queries.filter((q) => finding.has(q)).slice(0, SUGGESTIONS);
  }

  private startsWith(start: string | null) {
    return start ? sql`${searchQueries.query} like ${`${escapeLike(start)}%`}` : undefined;
  }

  /**
   * GET /api/admin/search-suggestions: what the header offers (or, with `hidden`, what admins removed), most
   * searched first, optionally by the beginning of the query.
   */
  async adminList(opts: { q?: string | undefined; hidden: boolean; limit: number }): Promise<AdminSearchSuggestion[]> {
    const start = opts.q ? normalizeSearch(opts.q) : null;
    if (opts.q && !start) return [];
    const rows = await this.db
      .select()
      .from(searchQueries)
      .where(
        and(
          opts.hidden ? isNotNull(searchQueries.hiddenAt) : and(isNull(searchQueries.hiddenAt), gte(searchQueries.searches, MIN_SEARCHES)),
          this.startsWith(start),
        ),
      )
      .orderBy(desc(searchQueries.searches), searchQueries.query)
      .limit(opts.limit);
    return rows.map((r) => ({ query: r.query, searches: r.searches, hidden: r.hiddenAt !== null, updated_at: r.updatedAt.toISOString() }));
  }

  /**
   * DELETE /api/admin/search-suggestions/{query}: the query is never offered again, however often it is searched
   * (a query not yet counted is stored hidden right away). Idempotent.
   */
  async hide(admin: UserRow, text: string): Promise<string> {
    const query = normalizeSearch(text);
    if (!query) throw badRequest(CATALOG_MESSAGES.badSuggestion, { query: [CATALOG_MESSAGES.badSuggestion] });
    await this.withTx(userActor(admin), async ({ tx }) => {
      await tx
        .insert(searchQueries)
        .values({ query, hiddenAt: new Date() })
        .onConflictDoUpdate({ target: searchQueries.query, set: { hiddenAt: sql`coalesce(${searchQueries.hiddenAt}, now())` } });
      await audit(tx, { actorId: admin.id, action: 'search_suggestion.hide', targetType: 'search_query', targetId: query });
    });
    return query;
  }

  /** Writes the pending counts now (on shutdown, and in tests). */
  flush(): Promise<void> {
    return this.searches.flush();
  }
}
