import { inArray } from 'drizzle-orm';
import { users } from '../../users/schema.ts';
import { publicUserColumns } from '../../users/index.ts';
import type { ServiceCard } from '#contract/catalog';
import type { ServiceCatalogDeps } from '../deps.ts';
import { presentServiceCard } from '../presenter.ts';
import type { ListingRow } from './listing-plan.ts';

/** The cards of a page's rows, with their sellers (only the page's sellers are read). */
export async function listingCards(
  { db, realtime }: Pick<ServiceCatalogDeps, 'db' | 'realtime'>,
  rows: Pick<ListingRow, 'id' | 'title' | 'images' | 'price' | 'days' | 'rating' | 'reviewsCount' | 'categorySlug' | 'sellerId'>[],
): Promise<{ result: ServiceCard[] }> {
  const sellerIds = [...new Set(rows.map((r) => r.sellerId))];
  const [sellers, online] = await Promise.all([
    sellerIds.length ? db.select(publicUserColumns).from(users).where(inArray(users.id, sellerIds)) : [],
    realtime.onlineAmong(sellerIds),
  ]);
  const sellerById = new Map(sellers.map((u) => [u.id, u]));
  return {
    // A seller deleted between the two reads takes their services along: skip what has no seller any more.
    result: rows.flatMap((row) => {
      const seller = sellerById.get(row.sellerId);
      return seller ? [presentServiceCard({ ...row, seller }, online.has(row.sellerId))] : [];
    }),
  };
}
