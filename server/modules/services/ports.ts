import { and, desc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { services } from './schema.ts';
import { recentViews } from './schema.ts';
import { categoryRefs } from '../lookups/index.ts';
import { people, publicPersonColumns } from '../users/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ServiceCard } from '#contract/catalog';
import { publicService } from './policy.ts';
import { presentServiceCard } from './presenter.ts';
import { cardColumns } from './queries/listing-plan.ts';

// The reads other modules make of services (their ports): a seller's services on a person's page (people), the
// favourites' and recently viewed cards (favorites). A person's services list belongs here, not with the person:
// it is services under the services' own public rule and card, while the person's card and visibility (users)
// are what services build on, so the catalogue of people sits above both.

type Presence = Pick<Realtime, 'onlineAmong'>;

const sellerRef = people('seller');
const categoryRef = categoryRefs('category');

/** Service cards of public services, with their sellers and categories (publicCards' query). */
function selectCards<E extends Record<string, SQL.Aliased>>(db: Db, extra: E = {} as E) {
  return db
    .select({ ...cardColumns(services), categorySlug: categoryRef.slug, seller: publicPersonColumns(sellerRef), ...extra })
    .from(services)
    .innerJoin(sellerRef, eq(sellerRef.id, services.sellerId))
    .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
    .$dynamic();
}

/** Service cards of public services matching `where`. */
async function publicCards(db: Db, presence: Presence, where: SQL): Promise<ServiceCard[]> {
  const rows = await selectCards(db).where(and(publicService(), where));
  const online = await presence.onlineAmong(rows.map((r) => r.seller.id));
  return rows.map((row) => presentServiceCard(row, online.has(row.seller.id)));
}

/** Cards of those of these services that are public, in the order of `ids`. */
export async function publicServiceCardsByIds(db: Db, presence: Presence, ids: string[]): Promise<ServiceCard[]> {
  if (ids.length === 0) return [];
  const cards = new Map((await publicCards(db, presence, inArray(services.id, ids))).map((c) => [c._id, c]));
  return ids.flatMap((id) => cards.get(id) ?? []);
}

/**
 * A seller's public services, most popular first, with how many there are in all (counted before the limit, by
 * the window, in the same statement): a person's page and every service page read it.
 */
const sellerCards = statement((db) =>
  selectCards(db, { total: sql<number>`count(*) over ()`.mapWith(Number).as('total') })
    .where(and(publicService(), eq(services.sellerId, sql.placeholder('sellerId'))))
    .orderBy(desc(services.popularity), desc(services.id))
    .limit(sql.placeholder('limit'))
    .prepare('seller_service_cards'),
);

/** A seller's public services, most popular first, at most `limit`, and how many there are in all. */
export async function sellerServiceCards(
  db: Db,
  presence: Presence,
  sellerId: string,
  limit: number,
): Promise<{ cards: ServiceCard[]; total: number }> {
  const rows = await sellerCards(db).execute({ sellerId, limit });
  const online = await presence.onlineAmong(rows.length ? [sellerId] : []);
  return { cards: rows.map((row) => presentServiceCard(row, online.has(row.seller.id))), total: rows[0]?.total ?? 0 };
}

/**
 * "Offers at least one active service" (in the category of `categorySlug`, when given), on the id column of a
 * seller: the freelancers listing lists only sellers who do.
 */
export function offersServices(sellerId: SQLWrapper, categorySlug?: string): SQL {
  const inCategory = categorySlug
    ? sql` and ${services.categoryId} = (select ${categoryRef.id} from ${categoryRef} where ${categoryRef.slug} = ${categorySlug})`
    : sql``;
  return sql`exists (select 1 from ${services} where ${services.sellerId} = ${sellerId} and ${services.status} = 'active'${inCategory})`;
}

/**
 * The services `userId` opened last that are public now, the latest first. Views are recorded by the service
 * page's read (ServiceViews.remember); one row per service, so the list has no repeats.
 */
export async function recentlyViewedCards(db: Db, presence: Presence, userId: string, limit: number): Promise<ServiceCard[]> {
  const rows = await db
    .select({ id: recentViews.serviceId })
    .from(recentViews)
    .innerJoin(services, eq(services.id, recentViews.serviceId))
    .where(and(eq(recentViews.userId, userId), publicService()))
    .orderBy(desc(recentViews.viewedAt), desc(recentViews.serviceId))
    .limit(limit);
  return publicServiceCardsByIds(db, presence, rows.map((r) => r.id));
}
