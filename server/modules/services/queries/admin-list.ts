import { and, eq, ilike, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { services, type ServiceStatus } from '../schema.ts';
import { searchTsQuery } from '../../../platform/listing/search.ts';
import { escapeLike, matches, orderBy, page, searchText, timestampKey } from '../../../platform/listing/listing.ts';
import { cappedTotal } from '../../../platform/listing/totals.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps } from '../deps.ts';
import { presentService } from '../presenter.ts';
import { selectDetail } from './detail.ts';
import { adminSortPlan, after } from './listing-plan.ts';

export type AdminServicesQuery = {
  status?: ServiceStatus | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

/** The admin list's conditions: the state asked for, and the words of the text or a fragment of the title. */
async function adminFilter(query: AdminServicesQuery): Promise<SQL | undefined> {
  const where: SQL[] = [];
  // The moderation queue holds new services and edits of live ones alike.
  if (query.status === 'moderation') where.push(or(eq(services.status, 'moderation'), isNotNull(services.pendingEdit))!);
  else if (query.status) where.push(eq(services.status, query.status));
  const q = searchText(query.q);
  const words = await searchTsQuery(q);
  if (q) where.push(or(...(words ? [matches(services.search, words)] : []), ilike(services.title, `%${escapeLike(q)}%`))!);
  return where.length ? and(...where) : undefined;
}

/**
 * The admin list: every state, or one (the moderation queue oldest first, others newest first), searched by
 * the words of the text or a fragment of the title. Keyset pages as the public listing.
 */
export async function adminServices(
  { db, realtime }: Pick<ServiceCatalogDeps, 'db' | 'realtime'>,
  query: AdminServicesQuery,
): Promise<{ result: Service[]; total: number; next: string | null }> {
  const sort = query.status === 'moderation' ? 'queue' : 'recent';
  const plan = adminSortPlan(sort === 'queue');
  const filter = await adminFilter(query);
  const position = after(plan, sort, query.cursor);

  const [rows, total] = await Promise.all([
    selectDetail(db, { updatedKey: timestampKey(services.updatedAt) })
      .where(and(filter, position))
      .orderBy(...orderBy(plan.keys))
      .limit(query.limit + 1),
    cappedTotal(db, db.select({ one: sql`1` }).from(services).where(filter).$dynamic()),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (row) => [sort, ...plan.values({ id: row.service.id, updatedKey: row.updatedKey })]);
  const online = await realtime.onlineAmong(kept.map((r) => r.seller.id));
  return { result: kept.map((row) => presentService(row, online.has(row.seller.id), true)), total, next };
}
