import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { statement } from '../../../db/prepared.ts';
import { people, publicPersonColumns, type PublicUserRow } from '../../users/index.ts';
import type { ServiceCard } from '#contract/catalog';
import type { ServiceCatalogDeps } from '../deps.ts';
import { presentServiceCard } from '../presenter.ts';
import type { ListingRow } from './listing-plan.ts';

const sellerRef = people('seller');

/** The public faces of a page's sellers: built once (ADR 070), every listing reads them. */
const sellersById = statement((db) =>
  db
    .select(publicPersonColumns(sellerRef))
    .from(sellerRef)
    .where(sql`${sellerRef.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('listing_sellers'),
);
async function sellersOf(db: Db, ids: string[]): Promise<PublicUserRow[]> {
  return ids.length ? sellersById(db).execute({ ids }) : [];
}

/** A page's row as its card shows it. */
type CardRow = Pick<ListingRow, 'id' | 'title' | 'images' | 'price' | 'days' | 'rating' | 'reviewsCount' | 'categorySlug' | 'sellerId'>;

/** The cards of a page's rows, with their sellers (only the page's sellers are read). */
export async function listingCards({ db, realtime }: Pick<ServiceCatalogDeps, 'db' | 'realtime'>, rows: CardRow[]): Promise<{ result: ServiceCard[] }> {
  const sellerIds = [...new Set(rows.map((r) => r.sellerId))];
  const [sellers, online] = await Promise.all([sellersOf(db, sellerIds), realtime.onlineAmong(sellerIds)]);
  const sellerById = new Map(sellers.map((u) => [u.id, u]));
  return {
    // A seller deleted between the two reads takes their services along: skip what has no seller any more.
    result: rows.flatMap((row) => {
      const seller = sellerById.get(row.sellerId);
      return seller ? [presentServiceCard({ ...row, seller }, online.has(row.sellerId))] : [];
    }),
  };
}

/** The cards of a page whose rows were read with their sellers (one statement: plain-listing.ts). */
export async function cardsOfRowsWithSellers(
  { realtime }: Pick<ServiceCatalogDeps, 'realtime'>,
  rows: (CardRow & { seller: PublicUserRow })[],
): Promise<{ result: ServiceCard[] }> {
  const online = await realtime.onlineAmong([...new Set(rows.map((r) => r.sellerId))]);
  return { result: rows.map((row) => presentServiceCard(row, online.has(row.sellerId))) };
}
