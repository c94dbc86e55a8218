import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { statement } from '../../../db/prepared.ts';
import { services } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { CATALOG_MESSAGES, type Service } from '#contract/catalog';
import type { ServiceCatalogDeps } from '../deps.ts';
import { detailCategory, detailSelection, detailSeller, detailSub, presentService, type ServiceJoined } from '../presenter.ts';

// One service with its seller and categories, as its page, its owner and the moderators see it.

type DetailDeps = Pick<ServiceCatalogDeps, 'db' | 'realtime'>;

/** Services joined with what presenting them needs (detailSelection), with `extra` columns. */
export function selectDetail<E extends Record<string, SQL.Aliased | SQL>>(db: Db, extra: E = {} as E) {
  return db
    .select({ ...detailSelection, ...extra })
    .from(services)
    .innerJoin(detailSeller, eq(detailSeller.id, services.sellerId))
    .innerJoin(detailCategory, eq(detailCategory.id, services.categoryId))
    .leftJoin(detailSub, eq(detailSub.id, services.subCategoryId))
    .$dynamic();
}

/** One service by its id: every page view reads it. */
const serviceById = statement((db) => selectDetail(db).where(eq(services.id, sql.placeholder('id'))).limit(1).prepare('service_by_id'));

export async function findService(db: Db, id: string): Promise<ServiceJoined | null> {
  const [row] = await serviceById(db).execute({ id });
  return row ?? null;
}

/** The service, or the 404 of one that is not there. */
export async function existingService(db: Db, id: string): Promise<ServiceJoined> {
  const row = await findService(db, id);
  if (!row) throw notFound(CATALOG_MESSAGES.serviceNotFound);
  return row;
}

/** The service presented with its seller's online status. */
export async function presentWithPresence({ realtime }: DetailDeps, row: ServiceJoined, withPending = false): Promise<Service> {
  const online = await realtime.onlineAmong([row.seller.id]);
  return presentService(row, online.has(row.seller.id), withPending);
}

/** The service after a change, for its owner or an admin (with an edit waiting for moderation); any service for an admin. */
export async function reloadService(deps: DetailDeps, id: string): Promise<Service> {
  return presentWithPresence(deps, await existingService(deps.db, id), true);
}

/** The seller's own services in every state, newest first. */
export async function sellerOwnServices({ db, realtime }: DetailDeps, user: UserRow): Promise<Service[]> {
  const rows = await selectDetail(db).where(eq(services.sellerId, user.id)).orderBy(desc(services.createdAt), desc(services.id));
  const online = (await realtime.onlineAmong([user.id])).has(user.id);
  return rows.map((row) => presentService(row, online, true));
}
