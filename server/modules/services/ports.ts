import { and, count, desc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
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

/** Service cards of public services matching `where`, with their sellers and categories. */
async function publicCards(db: Db, presence: Presence, where: SQL, opts: { order?: SQL[]; limit?: number } = {}): Promise<ServiceCard[]> {
  const query = db
    .select({ ...cardColumns(services), categorySlug: categoryRef.slug, seller: publicPersonColumns(sellerRef) })
    .from(services)
    .innerJoin(sellerRef, eq(sellerRef.id, services.sellerId))
    .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
    .where(and(publicService(), where))
    .orderBy(...(opts.order ?? []))
    .$dynamic();
  const rows = await (opts.limit ? query.limit(opts.limit) : query);
  const online = await presence.onlineAmong(rows.map((r) => r.seller.id));
  return rows.map((row) => presentServiceCard(row, online.has(row.seller.id)));
}

/** Cards of those of these services that are public, in the order of `ids`. */
export async function publicServiceCardsByIds(db: Db, presence: Presence, ids: string[]): Promise<ServiceCard[]> {
  if (ids.length === 0) return [];
  const cards = new Map((await publicCards(db, presence, inArray(services.id, ids))).map((c) => [c._id, c]));
  return ids.flatMap((id) => cards.get(id) ?? []);
}

/** A seller's public services, most popular first, at most `limit`, and how many there are in all. */
export async function sellerServiceCards(
  db: Db,
  presence: Presence,
  sellerId: string,
  limit: number,
): Promise<{ cards: ServiceCard[]; total: number }> {
  const [cards, [counted]] = await Promise.all([
    publicCards(db, presence, eq(services.sellerId, sellerId), { order: [desc(services.popularity), desc(services.id)], limit }),
    db
      .select({ n: count() })
      .from(services)
      .where(and(publicService(), eq(services.sellerId, sellerId))),
  ]);
  return { cards, total: counted?.n ?? 0 };
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
