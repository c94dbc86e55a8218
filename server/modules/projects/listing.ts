import { and, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { projects } from './schema.ts';
import { partialQuery, searchTsQuery, synonymIndex, type PartialQuery, type SynonymGroups } from '../../platform/listing/search.ts';
import { cursorPosition, cursorTag, keysetAfter, matches, orderBy, page, searchQuery, searchText, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal, listingTotal } from '../../platform/listing/totals.ts';
import type { Project, projectsQuerySchema } from '#contract/catalog';
import type { Page, ProjectDeps } from './deps.ts';
import { listedProject } from './policy.ts';
import type { ProjectRecord } from './presenter.ts';
import { categoryFilter, presentProjects, projectRecords } from './records.ts';
import { after, cursorOf, PROJECT_SORT_KEYS } from './sort.ts';

// The public listing (GET /api/projects): active projects of customers in good standing, filtered, sorted, one
// keyset page; a search that matches nothing with every word falls back to the partial matches (ADR 044).

type ProjectsQuery = z.output<typeof projectsQuerySchema>;
type ListingPage = Page<Project> & { total_exact: boolean; partial?: true };

/** The partial matches of a search are read word by word, at most this many in all (ADR 044); the cursor's sort name. */
const PARTIAL_LIMIT = 5_000;
const PARTIAL = 'partial';

export async function listProjects(deps: ProjectDeps, query: ProjectsQuery): Promise<ListingPage> {
  const text = searchText(query.q);
  const groups = (await deps.synonyms?.()) ?? [];
  if (text && query.cursor && cursorTag(query.cursor) === PARTIAL) {
    const partial = partialQuery(text, synonymIndex(groups));
    const byCategory = await categoryFilter(deps.db, query.category, query.sub);
    if (!partial || !byCategory) return { result: [], total: 0, total_exact: true, next: null };
    return partialPage(deps, query, partial, byCategory);
  }
  const found = await listPage(deps, query, groups);
  if (!text || found.result.length || query.cursor) return found;
  // Nothing matched every word: the projects matching the most of them (ADR 044).
  const partial = partialQuery(text, synonymIndex(groups));
  const byCategory = await categoryFilter(deps.db, query.category, query.sub);
  if (!partial || !byCategory) return found;
  const some = await partialPage(deps, query, partial, byCategory);
  return some.result.length ? some : found;
}

/**
 * A page of the partial matches of a search (ADR 044), as the services' (ServiceCatalog.partialPage): projects
 * matching any of its words, read word by word (at most PARTIAL_LIMIT in all), the most words first, then newest.
 */
async function partialPage(
  { db, presence }: ProjectDeps,
  query: ProjectsQuery,
  partial: PartialQuery,
  byCategory: SQL[],
): Promise<Page<Project> & { total_exact: boolean; partial: true }> {
  const base = [listedProject(), ...byCategory];
  if (query.budget_min !== undefined) base.push(gte(projects.budget, query.budget_min));
  if (query.budget_max !== undefined) base.push(lte(projects.budget, query.budget_max));
  const share = Math.ceil(PARTIAL_LIMIT / partial.words.length);
  const reads = partial.words.map(
    (word) =>
      sql`(select ${projects.id} from ${projects} where ${and(...base, matches(projects.search, [word, ...partial.excluded].join(' & ')))} limit ${share})`,
  );
  const candidates = sql`${projects.id} in (${sql.join(reads, sql` union all `)})`;
  const hits = sql<number>`(${sql.join(
    partial.words.map((word) => sql`(${projects.search} @@ ${searchQuery(word)})::int`),
    sql` + `,
  )})`;
  const keys: SortKey[] = [{ expr: hits, dir: 'desc', kind: 'int4' }, ...PROJECT_SORT_KEYS.new];
  const position = query.cursor ? keysetAfter(keys, cursorPosition(query.cursor, PARTIAL, keys)) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({ hits, id: projects.id, createdKey: timestampKey(projects.createdAt) })
      .from(projects)
      .where(and(candidates, position))
      .orderBy(...orderBy(keys))
      .limit(query.limit + 1),
    cappedTotal(
      db,
      db
        .select({ one: sql`1` })
        .from(projects)
        .where(candidates)
        .$dynamic(),
      query.cursor,
    ),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r) => [PARTIAL, r.hits, r.createdKey, r.id]);
  const records = kept.length
    ? await projectRecords(db).where(
        inArray(
          projects.id,
          kept.map((r) => r.id),
        ),
      )
    : [];
  const byId = new Map(records.map((r) => [r.project.id, r]));
  const result = await presentProjects(presence, kept.flatMap((r) => byId.get(r.id) ?? []));
  return { result, total, total_exact: true, next, partial: true };
}

/** One page of the listing as asked (every word of the search). */
async function listPage(
  { db, presence }: ProjectDeps,
  query: ProjectsQuery,
  groups: SynonymGroups,
): Promise<Page<Project> & { total_exact: boolean }> {
  const sort = query.sort;
  // Read first: a broken cursor is a 400 whatever the filters.
  const position = after(sort, query.cursor);
  const byCategory = await categoryFilter(db, query.category, query.sub);
  if (!byCategory) return { result: [], total: 0, total_exact: true, next: null };

  const where: SQL[] = [listedProject(), ...byCategory];
  // The same words, synonyms and prefix as the services' search (ADR 028).
  const q = await searchTsQuery(query.q, groups);
  if (q) where.push(matches(projects.search, q));
  if (query.budget_min !== undefined) where.push(gte(projects.budget, query.budget_min));
  if (query.budget_max !== undefined) where.push(lte(projects.budget, query.budget_max));
  const filter = and(...where)!;

  const read = async () => {
    const rows: ProjectRecord[] = [];
    for (const segment of position ?? [undefined]) {
      const wanted = query.limit + 1 - rows.length;
      if (wanted <= 0) break;
      rows.push(...(await projectRecords(db).where(and(filter, segment)).orderBy(...orderBy(PROJECT_SORT_KEYS[sort])).limit(wanted)));
    }
    return rows;
  };
  const [rows, counted] = await Promise.all([
    read(),
    listingTotal(db, db.select({ one: sql`1` }).from(projects).where(filter).$dynamic(), query.cursor),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf(sort, r));
  return { result: await presentProjects(presence, kept), total: counted.total, total_exact: counted.exact, next };
}
