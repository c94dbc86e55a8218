import { and, desc, eq, ilike, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { pagesChanged } from '../../platform/page-cache.ts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { services, type PendingServiceEdit, type ServiceStatus } from '../../db/schema/catalog.ts';
import { categories, subCategories } from '../../db/schema/lookups.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { recentViews, serviceViewsDaily } from '../../db/schema/stats.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import type { Letters, ServiceDecision } from '../../platform/letters/index.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import type { OutboxWriter } from '../../platform/outbox.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { audit } from '../../platform/audit.ts';
import { FILE_MESSAGES, ownedFile } from '../../platform/files.ts';
import { publicUserColumns } from '../people/index.ts';
import { isPublicService, publicService, servicePolicy } from './policy.ts';
import { Tally } from '../../platform/listing/tally.ts';
import { SeenToday } from '../../platform/listing/visitors.ts';
import { correctedQuery, searchTsQuery, synonymIndex, unknownWords, type SynonymGroups } from '../../platform/listing/search.ts';
import {
  cappedTotal,
  cursorTag,
  estimateRows,
  EXACT_TOTAL_LIMIT,
  listingTotal,
  cursorPosition,
  escapeLike,
  keysetAfter,
  levelCondition,
  matches,
  onlineCondition,
  orderBy,
  page,
  searchRank,
  searchText,
  timestampKey,
  withoutControls,
  type CursorValue,
  type SortKey,
} from '../../platform/listing/listing.ts';
import {
  CATALOG_MESSAGES,
  type Service,
  type ServiceCard,
  type ServiceEditView,
  type serviceInputSchema,
  type servicesQuerySchema,
  type serviceStatusActionSchema,
} from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { belowMinPrice, MIN_SERVICE_PRICE } from '#contract/catalog-constants';
import { dayOf } from '#contract/dashboard';
import { MODERATION_MESSAGES } from '#contract/moderation';

// Services (kworks): the public listing and page, the seller's own services and their states, and moderation.
//
// States: draft → moderation → active | rejected (with a reason); active ⇄ paused by the seller; any edit of a
// published, paused or rejected service sends it back to moderation; an admin may hide any service (with a
// reason) and restore a hidden one. Only active services of sellers who are not blocked are public.

export type ServicesQuery = z.output<typeof servicesQuerySchema>;
export type ServiceInputData = z.output<typeof serviceInputSchema>;
import { detailSelection, presentService, presentServiceCard, type ServiceJoined } from './presenter.ts';
export type ServiceStatusAction = z.output<typeof serviceStatusActionSchema>['action'];

/** A page of the public listing; `corrected`: the corrected query whose results these are (nothing was found). */
export interface ServiceListing {
  result: ServiceCard[];
  total: number;
  total_exact: boolean;
  next: string | null;
  corrected?: string;
}

/** What an admin can set (PATCH /api/admin/services/{id}); a reason goes with rejected and hidden. */
export type AdminDecision = { status: 'active' | 'rejected' | 'hidden'; reason?: string | undefined };
export type AdminServicesQuery = {
  status?: ServiceStatus | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

// --- Sorting -----------------------------------------------------------------------------------------------

/**
 * The orders of the public listing; each ends with the id, so it is total and a cursor is a position in it.
 * `relevance` is what "popular" becomes when there is a search (see ServiceCatalog.list).
 */
export type ListingSort = ServicesQuery['sort'] | 'relevance';

/** A card of the listing as its query reads it (the cursor's keys among it). */
interface ListingRow {
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

interface SortPlan<R> {
  keys: SortKey[];
  /** The cursor values of a row, one per key. */
  values: (row: R) => CursorValue[];
}

/** The orders of the public listing, each a total order ending with the id (exported for the cursor tests). */
export function sortPlan(sort: ListingSort, q: string | null): SortPlan<ListingRow> {
  const id = (dir: 'asc' | 'desc'): SortKey => ({ expr: services.id, dir, kind: 'uuid' });
  switch (sort) {
    case 'popular':
      return {
        keys: [{ expr: services.popularity, dir: 'desc', kind: 'int4' }, id('desc')],
        values: (r) => [r.popularity, r.id],
      };
    case 'new':
      return {
        keys: [{ expr: services.publishedAt, dir: 'desc', kind: 'timestamptz' }, id('desc')],
        values: (r) => [r.publishedKey, r.id],
      };
    case 'price_asc':
      return { keys: [{ expr: services.price, dir: 'asc', kind: 'int4' }, id('asc')], values: (r) => [r.price, r.id] };
    case 'price_desc':
      return {
        keys: [{ expr: services.price, dir: 'desc', kind: 'int4' }, id('desc')],
        values: (r) => [r.price, r.id],
      };
    case 'rating':
      return {
        keys: [{ expr: services.rating, dir: 'desc', kind: 'int4' }, id('desc')],
        values: (r) => [r.rating, r.id],
      };
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

/**
 * A search with the default sort is ranked when the planner expects at most this many matches: ranking scores
 * every match, so its cost grows with them, while popularity order is an index walk. The same bound as an
 * exact total: a set small enough to count is small enough to rank.
 */
const RANK_LIMIT = EXACT_TOTAL_LIMIT;

/**
 * A search in popularity order whose planner estimate is below walkFrom reads its matches from the search index,
 * at most FEW_LIMIT of them, and sorts them (popularAmongFew), instead of walking the popularity index: a walk for
 * 25 rare matches reads tens of thousands of rows (ADR 028). The estimate of one word is the statistics' own
 * frequency; that of several words is a product of theirs, often several times too high for words that seldom
 * meet (4,600 expected, 913 found), so it is trusted up to a higher bound. And never near what the planner
 * expects of a word its statistics do not have (`rare`: a rare word and a missing one get the same guess, a
 * fraction of the rarest frequent word's, which grows with the table): such a search may find next to nothing.
 */
const FEW_LIMIT = 5_000;
const walkFrom = (tsQuery: string, rare: number) => Math.max(tsQuery.includes('&') ? 20_000 : FEW_LIMIT, 1.5 * rare);
/** A word no service has, whose estimate is the planner's guess for any word its statistics lack. */
const NO_SUCH_WORD = 'ъъъъъъъъ';

/** The columns of a listing card that both reads of a page (ServiceCatalog.listPage, popularAmongFew) select. */
const cardColumns = {
  id: services.id,
  title: services.title,
  images: services.images,
  price: services.price,
  days: services.days,
  rating: services.rating,
  reviewsCount: services.reviewsCount,
  popularity: services.popularity,
  sellerId: services.sellerId,
};

/** How long findsSomething's answer about a text is reused. */
const FINDS_REUSE_MS = 60_000;

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
function after(plan: SortPlan<never>, sort: string, cursor: string | undefined): SQL | undefined {
  return cursor ? keysetAfter(plan.keys, cursorPosition(cursor, sort, plan.keys)) : undefined;
}

// --- The service ------------------------------------------------------------------------------------------

export interface ServiceCatalogDeps {
  db: Db;
  realtime: Pick<Realtime, 'onlineAmong'>;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
  log: Logger;
  /** Who was counted today (shared by instances in production); memory of this instance when absent. */
  seen?: SeenToday;
  /** The operator's synonym groups of the search (setting search.synonyms, ADR 028); none when absent. */
  synonyms?: () => Promise<SynonymGroups>;
  /** The operator's minimum price of a service and of each package, kopecks (setting services.minPrice). */
  minPrice?: () => Promise<number>;
}

/** What a seller may do to their own service: from which states, to which. */
const SELLER_ACTIONS: Record<ServiceStatusAction, { from: ServiceStatus[]; to: ServiceStatus }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  submit: { from: ['draft', 'rejected'], to: 'moderation' },
};

/** Which decision (its audit action and letter) setting `status` is, from the `current` state; null when it does not apply. */
function adminTransition(
  current: ServiceStatus,
  status: AdminDecision['status'],
): { decision: ServiceDecision; from: ServiceStatus[] } | null {
  if (status === 'active') {
    if (current === 'moderation') return { decision: 'approve', from: ['moderation'] };
    if (current === 'hidden') return { decision: 'restore', from: ['hidden'] };
    return null;
  }
  if (status === 'rejected') return current === 'moderation' ? { decision: 'reject', from: ['moderation'] } : null;
  return current === 'hidden' ? null : { decision: 'hide', from: [current] };
}

export const ADMIN_SERVICE_MESSAGES = {
  reasonRequired: MODERATION_MESSAGES.reasonRequired,
} as const;

const cannotChange = () => badRequest(CATALOG_MESSAGES.cannotChange);

/** An edit as its form shows it: the categories by slug, the rest as it will be stored. */
function editView(input: ServiceInputData, values: Awaited<ReturnType<ServiceCatalog['fields']>>): ServiceEditView {
  const { title, description, tags, images, price, days, revisions, packages, extras } = values;
  return { title, description, category: input.category, sub: input.sub ?? null, tags, images, price, days, revisions, packages, extras };
}
const fieldError = (field: string, message: string) => badRequest(MESSAGES.validation, { [field]: [message] });

/** Tags as stored: trimmed, single-spaced, lower case, each once. */
export const normalizeTags = (tags: readonly string[]) => [
  ...new Set(tags.map((t) => withoutControls(t).trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean)),
];

/** Text as stored: no NUL (PostgreSQL refuses it) nor other control characters but line breaks and tabs. */
// eslint-disable-next-line no-control-regex
const storable = (text: string) => text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
const oneLine = (text: string) => withoutControls(text).replace(/\s+/g, ' ').trim();

export class ServiceCatalog {
  /** Views of service pages, written in batches (see Tally): a view adds to views and popularity. */
  private readonly views: Tally;
  private readonly seen: SeenToday;

  constructor(private readonly deps: ServiceCatalogDeps) {
    this.seen = deps.seen ?? new SeenToday(null, deps.log);
    this.views = new Tally(async (batch) => {
      const rows = JSON.stringify(batch.map(([id, n]) => ({ id, n })));
      // One statement: the running totals, and the day's row of each service for the seller's dashboard (ADR 031;
      // a batch's views count on the Moscow day it is written, at most the tally's interval late).
      await this.db.execute(sql`
        with counted as (
          update ${services} set views = ${services.views} + v.n, popularity = ${services.popularity} + v.n
          from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, n int)
          where ${services.id} = v.id
          returning ${services.id} as id, v.n as n)
        insert into ${serviceViewsDaily} (service_id, day, views)
        select id, ${dayOf(new Date())}::date, n from counted
        on conflict (service_id, day) do update set views = ${serviceViewsDaily}.views + excluded.views`);
    }, deps.log);
  }

  /** Writes the pending page views now (on shutdown, and in tests that read the table). */
  flushViews(): Promise<void> {
    return this.views.flush();
  }

  private get db() {
    return this.deps.db;
  }

  // --- Public listing ---

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
  async list(query: ServicesQuery): Promise<ServiceListing> {
    const groups = (await this.deps.synonyms?.()) ?? [];
    const text = searchText(query.q);
    const unknown = text ? (await unknownWords(this.db, text, synonymIndex(groups))).length > 0 : false;
    const found = await this.listPage(query, await searchTsQuery(query.q, groups, this.db), unknown);
    if (!text || found.result.length) return found;
    // Nothing found: the query with mistyped words replaced by the catalogue's nearest ones, if that finds
    // something (ADR 028). Later pages ask with the same text and are corrected the same way.
    const corrected = await correctedQuery(this.db, text, synonymIndex(groups));
    if (!corrected) return found;
    const retried = await this.listPage(query, await searchTsQuery(corrected, groups, this.db));
    return retried.result.length ? { ...retried, corrected } : found;
  }

  /**
   * Which of these search texts find at least one public service now (the header's suggestions offer only
   * those, ADR 028). An answer is kept for a minute per text: suggestions are asked at every key press.
   */
  async findsSomething(texts: readonly string[]): Promise<Set<string>> {
    const groups = (await this.deps.synonyms?.()) ?? [];
    const now = Date.now();
    const answers = await Promise.all(
      texts.map(async (text) => {
        const kept = this.finding.get(text);
        if (kept && now - kept.at < FINDS_REUSE_MS) return kept.value ? text : null;
        const q = await searchTsQuery(text, groups, this.db);
        const found = q
          ? (await this.db.select({ one: sql`1` }).from(services).where(and(publicService(), matches(services.search, q))).limit(1)).length > 0
          : false;
        if (this.finding.size >= 10_000) this.finding.clear();
        this.finding.set(text, { at: now, value: found });
        return found ? text : null;
      }),
    );
    return new Set(answers.filter((t): t is string => t !== null));
  }
  private readonly finding = new Map<string, { at: number; value: boolean }>();

  /**
   * Services of any state whose document matches `q`, counted up to `cap + 1`: an upper bound of the public
   * matches. A bitmap scan of the GIN index, which stops at cap + 1 rows and needs no heap page of an
   * all-visible table: cheap however common the words, and exact for a rare or missing one.
   */
  private async matchesUpTo(q: string, cap: number): Promise<number> {
    const inner = this.db.select({ one: sql`1` }).from(services).where(matches(services.search, q)).limit(cap + 1).as('m');
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(inner);
    return row?.n ?? 0;
  }

  /**
   * A page of the matches of `where` (a search) in popularity order, read from the search index and sorted, when
   * there are at most FEW_LIMIT of them (after `position`), with their number; null when there are more. Bounded
   * work whatever the planner expects: one bitmap scan, FEW_LIMIT + 1 rows at most (see walkFrom). With `rankBy`
   * (the first page), at most RANK_LIMIT matches are ranked by it instead, as the relevance sort orders them.
   */
  private async popularAmongFew(
    where: SQL,
    position: SQL | undefined,
    limit: number,
    rankBy: string | null,
  ): Promise<{ rows: ListingRow[]; matches: number } | null> {
    const found = this.db
      .select({
        ...cardColumns,
        publishedKey: timestampKey(services.publishedAt).as('published_key'),
        categoryId: services.categoryId,
        search: services.search,
      })
      .from(services)
      .where(position ? and(where, position) : where)
      .limit(FEW_LIMIT + 1)
      .as('found');
    const count = sql`count(*) over ()`;
    const rank = rankBy ? sql<number>`case when ${count} <= ${RANK_LIMIT} then ${searchRank(found.search, rankBy)} else 0 end` : sql<number>`0`;
    const rows = await this.db
      .select({
        id: found.id,
        title: found.title,
        images: found.images,
        price: found.price,
        days: found.days,
        rating: found.rating,
        reviewsCount: found.reviewsCount,
        popularity: found.popularity,
        publishedKey: found.publishedKey,
        rank,
        categorySlug: categories.slug,
        sellerId: found.sellerId,
        matches: sql<number>`${count}::int`,
      })
      .from(found)
      .innerJoin(categories, eq(categories.id, found.categoryId))
      .orderBy(...(rankBy ? [desc(rank)] : []), desc(found.popularity), desc(found.id))
      .limit(limit + 1);
    const n = rows[0]?.matches ?? 0;
    return n > FEW_LIMIT ? null : { rows, matches: n };
  }

  /** What the planner expects a search for a word its statistics lack to find (see walkFrom); kept a minute. */
  private rareEstimate(): Promise<number> {
    return estimateRows(this.db, this.db.select({ one: sql`1` }).from(services).where(and(publicService(), matches(services.search, NO_SUCH_WORD))).$dynamic());
  }

  /** `unknown`: the search has a word that no title, tag or category title has (see unknownWords). */
  private async listPage(query: ServicesQuery, q: string | null, unknown = false): Promise<ServiceListing> {
    const filter = and(...this.publicFilter(query, q))!;
    // The filter is on services alone (sellers' conditions are semi-joins), so a page is sorted and cut
    // before its sellers are read, and only the page's sellers are.
    const matching = this.db
      .select({ one: sql`1` })
      .from(services)
      .where(filter)
      .$dynamic();

    let sort: ListingSort = query.sort;
    let estimate: number | undefined;
    // The matches in popularity order when there are few (popularAmongFew), and how many there are.
    let few: { rows: ListingRow[]; matches: number } | null = null;
    let counted: number | undefined;
    if (q && query.sort === 'popular') {
      if (query.cursor) {
        sort = cursorTag(query.cursor) === 'relevance' ? 'relevance' : 'popular';
        if (sort === 'popular' && (await estimateRows(this.db, matching)) < walkFrom(q, await this.rareEstimate())) {
          few = await this.popularAmongFew(filter, after(sortPlan(sort, q), sort, query.cursor), query.limit, null);
        }
      } else {
        estimate = await estimateRows(this.db, matching);
        if (estimate > RANK_LIMIT && estimate < walkFrom(q, await this.rareEstimate())) {
          few = await this.popularAmongFew(filter, undefined, query.limit, q);
          // Counted: a total known exactly, and few enough to be ranked (they were, in the same query).
          if (few) estimate = counted = few.matches;
        } else if (estimate > RANK_LIMIT && unknown) {
          // The planner cannot tell a rare word from a missing one (both get a fraction of its rarest common
          // word, thousands of rows at a million): a walk of the popularity index for 25 matches that do not
          // exist reads the whole index (seconds). Its guess of a big set is checked against the search index,
          // which answers a small set at once (ADR 028). Checked when a word is one no title, tag or category has
          // (a typo, a description's word): a query of known words finds its matches on the way down the index.
          const n = await this.matchesUpTo(q, RANK_LIMIT);
          if (n <= RANK_LIMIT) estimate = n;
        }
        sort = estimate <= RANK_LIMIT ? 'relevance' : 'popular';
      }
    }
    const plan = sortPlan(sort, q);
    const position = after(plan, sort, query.cursor);

    const [rows, total] = await Promise.all([
      few?.rows ??
      this.db
        .select({
          ...cardColumns,
          publishedKey: timestampKey(services.publishedAt),
          rank: sort === 'relevance' ? searchRank(services.search, q ?? '') : sql<number>`0`,
          categorySlug: categories.slug,
        })
        .from(services)
        .innerJoin(categories, eq(categories.id, services.categoryId))
        .where(position ? and(filter, position) : filter)
        .orderBy(...orderBy(plan.keys))
        .limit(query.limit + 1),
      listingTotal(this.db, matching, query.cursor, estimate, counted),
    ]);

    const { rows: kept, next } = page(rows, query.limit, (row) => [sort, ...plan.values(row)]);
    const sellerIds = [...new Set(kept.map((r) => r.sellerId))];
    const [sellers, online] = await Promise.all([
      sellerIds.length ? this.db.select(publicUserColumns).from(users).where(inArray(users.id, sellerIds)) : [],
      this.deps.realtime.onlineAmong(sellerIds),
    ]);
    const sellerById = new Map(sellers.map((u) => [u.id, u]));
    return {
      // A seller deleted between the two reads takes their services along: skip what has no seller any more.
      result: kept.flatMap((row) => {
        const seller = sellerById.get(row.sellerId);
        return seller ? [presentServiceCard({ ...row, seller }, online.has(row.sellerId))] : [];
      }),
      total: total.total,
      total_exact: total.exact,
      next,
    };
  }

  private publicFilter(query: ServicesQuery, q: string | null): SQL[] {
    const where: SQL[] = [publicService()];
    if (query.category)
      where.push(
        sql`${services.categoryId} = (select ${categories.id} from ${categories} where ${categories.slug} = ${query.category})`,
      );
    if (query.sub)
      where.push(
        sql`${services.subCategoryId} = (select ${subCategories.id} from ${subCategories} where ${subCategories.slug} = ${query.sub})`,
      );
    if (query.tag) where.push(sql`${services.tags} @> array[${normalizeTags([query.tag])[0] ?? ''}]::text[]`);
    if (q) where.push(matches(services.search, q));
    if (query.price_min !== undefined) where.push(sql`${services.price} >= ${query.price_min}`);
    if (query.price_max !== undefined) where.push(sql`${services.price} <= ${query.price_max}`);
    if (query.days_max !== undefined) where.push(sql`${services.days} <= ${query.days_max}`);
    const sellersWhere = (condition: SQL) =>
      sql`${services.sellerId} in (select ${users.id} from ${users} where ${condition})`;
    if (query.level)
      where.push(
        sellersWhere(levelCondition(query.level, { completedOrders: users.completedOrders, rating: users.rating, lostDisputeAt: users.lostDisputeAt })),
      );
    if (query.online) where.push(sellersWhere(onlineCondition(users.lastSeenAt)));
    return where;
  }

  // --- One service ---

  private async find(id: string): Promise<ServiceJoined | null> {
    const [row] = await this.db
      .select(detailSelection)
      .from(services)
      .innerJoin(users, eq(users.id, services.sellerId))
      .innerJoin(categories, eq(categories.id, services.categoryId))
      .leftJoin(subCategories, eq(subCategories.id, services.subCategoryId))
      .where(eq(services.id, id))
      .limit(1);
    return row ?? null;
  }

  private async present(row: ServiceJoined, withPending = false): Promise<Service> {
    const online = await this.deps.realtime.onlineAmong([row.seller.id]);
    return presentService(row, online.has(row.seller.id), withPending);
  }

  /**
   * A service page, as servicePolicy lets the viewer see it. A view of a public service by anyone but the owner
   * counts (views and popularity), once a day per visitor (see visitorOf): reloading a page does not make a
   * service popular.
   */
  async get(viewer: UserRow | null, id: string, visitor: string): Promise<Service> {
    const row = servicePolicy.authorize(viewer, 'view', await this.find(id));
    const someoneElses = viewer?.id !== row.seller.id && isPublicService(row);
    // A signed-in buyer's «Вы недавно смотрели» on the home page (issue 15).
    if (someoneElses && viewer) await this.rememberView(viewer.id, id);
    const counts = someoneElses && (await this.firstView(id, visitor));
    const unwritten = counts ? this.views.add(id) : this.views.unwritten(id);
    row.service.views += unwritten;
    row.service.popularity += unwritten;
    return this.present(row, servicePolicy.can(viewer, 'seePendingEdit', row));
  }

  /**
   * A guest's view of a public service whose page was sent from the page cache (ADR 021): counted as get() counts
   * it, without loading the service again (the kept page was rendered for a guest, so the service was public).
   */
  async countView(id: string, visitor: string): Promise<void> {
    if (await this.firstView(id, visitor)) this.views.add(id);
  }

  private async rememberView(userId: string, serviceId: string): Promise<void> {
    const viewedAt = new Date();
    await this.db
      .insert(recentViews)
      .values({ userId, serviceId, viewedAt })
      .onConflictDoUpdate({ target: [recentViews.userId, recentViews.serviceId], set: { viewedAt } });
  }

  private firstView(id: string, visitor: string): Promise<boolean> {
    return this.seen.first(`view:service:${id}:${visitor}`);
  }

  /** The seller's own services in every state, newest first. */
  async mine(user: UserRow): Promise<Service[]> {
    const rows = await this.db
      .select(detailSelection)
      .from(services)
      .innerJoin(users, eq(users.id, services.sellerId))
      .innerJoin(categories, eq(categories.id, services.categoryId))
      .leftJoin(subCategories, eq(subCategories.id, services.subCategoryId))
      .where(eq(services.sellerId, user.id))
      .orderBy(desc(services.createdAt), desc(services.id));
    const online = (await this.deps.realtime.onlineAmong([user.id])).has(user.id);
    return rows.map((row) => presentService(row, online, true));
  }

  // --- The seller's changes ---

  /** Category and sub-category slugs to ids; the sub-category must belong to the category. */
  private async resolveCategory(
    input: Pick<ServiceInputData, 'category' | 'sub'>,
  ): Promise<{ categoryId: string; subCategoryId: string | null }> {
    const [category] = await this.db
      .select({ id: categories.id })
      .from(categories)
      .where(eq(categories.slug, input.category))
      .limit(1);
    if (!category) throw fieldError('category', CATALOG_MESSAGES.unknownCategory);
    if (!input.sub) return { categoryId: category.id, subCategoryId: null };
    const [sub] = await this.db
      .select({ id: subCategories.id, categoryId: subCategories.categoryId })
      .from(subCategories)
      .where(eq(subCategories.slug, input.sub))
      .limit(1);
    if (!sub || sub.categoryId !== category.id) throw fieldError('sub', CATALOG_MESSAGES.unknownSub);
    return { categoryId: category.id, subCategoryId: sub.id };
  }

  /** Every image must be an image file the seller uploaded. */
  private async checkImages(sellerId: string, images: readonly string[]): Promise<string[]> {
    const unique = [...new Set(images)];
    const errors: Record<string, string[]> = {};
    const found = await Promise.all(unique.map((url) => ownedFile(this.db, sellerId, url)));
    found.forEach((file, i) => {
      if (!file) errors[`images.${i}`] = [CATALOG_MESSAGES.notYourImage];
      else if (!file.mime.startsWith('image/')) errors[`images.${i}`] = [FILE_MESSAGES.badType];
    });
    if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
    return unique;
  }

  /** The price and every package's price at least the operator's minimum (ADR 036). */
  private async checkPrices(input: ServiceInputData) {
    const errors = belowMinPrice(input, (await this.deps.minPrice?.()) ?? MIN_SERVICE_PRICE);
    if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
  }

  /** The columns of a service from a valid input (the seller's files, known categories). */
  private async fields(sellerId: string, input: ServiceInputData) {
    const title = oneLine(input.title);
    // Control characters passed the length check but are not kept.
    if (title.length < 10) throw fieldError('title', 'Название — от 10 символов');
    await this.checkPrices(input);
    const { categoryId, subCategoryId } = await this.resolveCategory(input);
    const tags = normalizeTags(input.tags);
    return {
      title,
      description: storable(input.description),
      categoryId,
      subCategoryId,
      tags,
      tagsText: tags.join(' '),
      images: await this.checkImages(sellerId, input.images),
      price: input.price,
      days: input.days,
      revisions: input.revisions,
      packages: input.packages.map((p) => ({ ...p, description: storable(p.description) })),
      extras: input.extras.map((x) => ({ ...x, title: oneLine(x.title) })),
    };
  }

  /** The service after a change, for its owner or an admin (with an edit waiting for moderation). */
  private async reload(id: string): Promise<Service> {
    const row = await this.find(id);
    if (!row) throw notFound(CATALOG_MESSAGES.serviceNotFound);
    return this.present(row, true);
  }

  /** A new service of a confirmed seller: a draft, or straight to moderation with `publish`. */
  async create(seller: UserRow, input: ServiceInputData): Promise<Service> {
    servicePolicy.authorize(seller, 'create', { seller });
    const values = await this.fields(seller.id, input);
    const [row] = await this.db
      .insert(services)
      .values({ ...values, sellerId: seller.id, status: input.publish ? 'moderation' : 'draft' })
      .returning({ id: services.id });
    return this.reload(row!.id);
  }

  /** The service for a change by its owner (servicePolicy's `change`). */
  private async owned(user: UserRow, id: string): Promise<ServiceJoined> {
    return servicePolicy.authorize(user, 'change', await this.find(id));
  }

  /**
   * An edit by the owner. A draft stays a draft unless `publish`; a service in moderation stays there; a paused
   * or rejected one goes back to moderation. An active one stays public as approved while the edit waits for
   * moderation beside it (pending_edit; a second edit replaces the first), as Kwork does: buyers never meet a 404
   * because the seller fixed a typo. A hidden service cannot be edited.
   */
  async update(user: UserRow, id: string, input: ServiceInputData): Promise<Service> {
    const current = await this.owned(user, id);
    const from = current.service.status;
    if (from === 'hidden') throw cannotChange();
    const values = await this.fields(user.id, input);
    if (from === 'active') {
      const pendingEdit: PendingServiceEdit = { submittedAt: new Date().toISOString(), view: editView(input, values), values };
      const [row] = await this.db
        .update(services)
        .set({ pendingEdit, rejectReason: null, updatedAt: new Date() })
        .where(and(eq(services.id, id), eq(services.status, 'active')))
        .returning({ id: services.id });
      if (!row) throw cannotChange();
      return this.reload(id);
    }
    const status: ServiceStatus = from === 'draft' && !input.publish ? 'draft' : 'moderation';
    const [row] = await this.db
      .update(services)
      .set({ ...values, status, rejectReason: null, pendingEdit: null, updatedAt: new Date() })
      // Unless an admin hid it meanwhile.
      .where(and(eq(services.id, id), eq(services.status, from)))
      .returning({ id: services.id });
    if (!row) throw cannotChange();
    return this.reload(id);
  }

  /** Deleted for good, by its owner, in any state. */
  async remove(user: UserRow, id: string): Promise<void> {
    await this.owned(user, id);
    await this.db.delete(services).where(and(eq(services.id, id), eq(services.sellerId, user.id)));
  }

  /** pause (active → paused), resume (paused → active), submit (draft or rejected → moderation). */
  async changeStatus(user: UserRow, id: string, action: ServiceStatusAction): Promise<Service> {
    servicePolicy.authorize(user, action === 'pause' ? 'change' : 'publish', await this.find(id));
    const { from, to } = SELLER_ACTIONS[action];
    const [row] = await this.db
      .update(services)
      .set({ status: to, updatedAt: new Date(), ...(to === 'moderation' ? { rejectReason: null } : {}) })
      .where(and(eq(services.id, id), inArray(services.status, from)))
      .returning({ id: services.id });
    if (!row) throw cannotChange();
    return this.reload(id);
  }

  // --- Moderation ---

  /**
   * The admin list: every state, or one (the moderation queue oldest first, others newest first), searched by
   * the words of the text or a fragment of the title. Keyset pages as the public listing.
   */
  async adminList(query: AdminServicesQuery): Promise<{ result: Service[]; total: number; next: string | null }> {
    const sort = query.status === 'moderation' ? 'queue' : 'recent';
    const plan = adminSortPlan(sort === 'queue');
    const where: SQL[] = [];
    // The moderation queue holds new services and edits of live ones alike.
    if (query.status === 'moderation') where.push(or(eq(services.status, 'moderation'), isNotNull(services.pendingEdit))!);
    else if (query.status) where.push(eq(services.status, query.status));
    const q = searchText(query.q);
    const words = await searchTsQuery(q);
    if (q) where.push(or(...(words ? [matches(services.search, words)] : []), ilike(services.title, `%${escapeLike(q)}%`))!);
    const filter = where.length ? and(...where) : undefined;
    const position = after(plan, sort, query.cursor);

    const [rows, total] = await Promise.all([
      this.db
        .select({ ...detailSelection, updatedKey: timestampKey(services.updatedAt) })
        .from(services)
        .innerJoin(users, eq(users.id, services.sellerId))
        .innerJoin(categories, eq(categories.id, services.categoryId))
        .leftJoin(subCategories, eq(subCategories.id, services.subCategoryId))
        .where(and(filter, position))
        .orderBy(...orderBy(plan.keys))
        .limit(query.limit + 1),
      cappedTotal(
        this.db,
        this.db
          .select({ one: sql`1` })
          .from(services)
          .where(filter)
          .$dynamic(),
      ),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (row) => [
      sort,
      ...plan.values({ id: row.service.id, updatedKey: row.updatedKey }),
    ]);
    const online = await this.deps.realtime.onlineAmong(kept.map((r) => r.seller.id));
    return { result: kept.map((row) => presentService(row, online.has(row.seller.id), true)), total, next };
  }

  /** Any service in any state, for an admin. */
  adminGet(id: string): Promise<Service> {
    return this.reload(id);
  }

  /**
   * approve (moderation → active, published now unless it was before), reject (moderation → rejected),
   * hide (any state → hidden), restore (hidden → active). Recorded in the audit log in the same transaction;
   * the owner gets a letter. (In-app notifications join the letter with the notifications feature.)
   */
  async decide(admin: UserRow, id: string, { status, reason }: AdminDecision): Promise<Service> {
    if (status !== 'active' && !reason) throw fieldError('reason', ADMIN_SERVICE_MESSAGES.reasonRequired);
    const current = await this.find(id);
    if (!current) throw notFound(CATALOG_MESSAGES.serviceNotFound);
    if (current.service.status === 'active' && current.service.pendingEdit && status !== 'hidden') {
      return this.decideEdit(admin, current, status === 'active' ? null : (reason ?? null));
    }
    const transition = adminTransition(current.service.status, status);
    if (!transition) throw cannotChange();
    const { decision, from } = transition;
    const kept = status === 'active' ? null : (reason ?? null);
    await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx
        .update(services)
        .set({
          status,
          rejectReason: kept,
          updatedAt: new Date(),
          ...(status === 'active' ? { publishedAt: sql`coalesce(${services.publishedAt}, now())` } : {}),
        })
        .where(and(eq(services.id, id), inArray(services.status, from)))
        .returning({ id: services.id });
      // Changed by someone else in between: the decision was about a state that is gone.
      if (!row) throw cannotChange();
      await audit(tx, {
        actorId: admin.id,
        action: `service.${decision}`,
        targetType: 'service',
        targetId: id,
        details: kept ? { reason: kept } : {},
      });
      this.notify(outbox, current, decision, kept);
      // Guests' kept pages show it at once, on every instance.
      pagesChanged(outbox);
    });
    return this.reload(id);
  }

  /**
   * The decision on an edit of a live service (update()): approved, the edit replaces the public version; rejected
   * (`reason`), it is dropped and the approved version stays, with the reason for its owner. The service stays
   * active either way. Audited, with the owner's letter, in one transaction.
   */
  private async decideEdit(admin: UserRow, current: ServiceJoined, reason: string | null): Promise<Service> {
    const id = current.service.id;
    const pending = current.service.pendingEdit!;
    await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx
        .update(services)
        .set({ ...(reason === null ? pending.values : {}), pendingEdit: null, rejectReason: reason, updatedAt: new Date() })
        // The edit the moderator looked at, not one sent meanwhile.
        .where(and(eq(services.id, id), eq(services.status, 'active'), sql`${services.pendingEdit} ->> 'submittedAt' = ${pending.submittedAt}`))
        .returning({ id: services.id });
      if (!row) throw cannotChange();
      const decision = reason === null ? 'approve' : 'reject';
      await audit(tx, {
        actorId: admin.id,
        action: `service.${decision}-edit`,
        targetType: 'service',
        targetId: id,
        details: reason ? { reason } : {},
      });
      this.notify(outbox, { ...current, service: { ...current.service, title: pending.view.title } }, decision, reason);
      if (reason === null) pagesChanged(outbox);
    });
    return this.reload(id);
  }

  /** An admin's edit of the fields (say, a wrong category or a forbidden word); the state stays as it is. */
  async adminUpdate(admin: UserRow, id: string, input: ServiceInputData): Promise<Service> {
    const current = await this.find(id);
    if (!current) throw notFound(CATALOG_MESSAGES.serviceNotFound);
    // The images stay the seller's own files.
    const values = await this.fields(current.seller.id, input);
    await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      await tx
        .update(services)
        // The admin's version is the one that counts: an edit that was waiting beside it is settled by it.
        .set({ ...values, pendingEdit: null, updatedAt: new Date() })
        .where(eq(services.id, id));
      await audit(tx, { actorId: admin.id, action: 'service.edit', targetType: 'service', targetId: id });
      this.notify(outbox, current, 'edit', null);
      // Guests' kept pages show it at once, on every instance.
      pagesChanged(outbox);
    });
    return this.reload(id);
  }

  /** The owner's letter about a decision, queued in the decision's transaction (unless they switched it off). */
  private notify(outbox: OutboxWriter, row: ServiceJoined, decision: ServiceDecision, reason: string | null) {
    this.deps.letters.notify(outbox, row.seller, 'service.decision', { id: row.service.id, title: row.service.title, decision, reason });
  }
}
