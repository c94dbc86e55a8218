import type { Currency } from '#contract/constants';
import { currentUser } from '../../lib/current-user.ts';
import { useCurrency } from '../../lib/currency-store.ts';
import { deferred } from '../../lib/deferred.tsx';
import type { ListingPageProps } from './listing-page.tsx';
import type { ListingData } from './listing-data.ts';
import type { ListingKind } from './filters.ts';
import type { ListingItem } from './types.ts';

// A listing's page (its sort, chips, filters, cards and "Показать ещё") comes as the server's HTML, kept as it is
// while the page hydrates; its code (the page, the filters, the cards: ≈ 10 KiB gzip) comes with the first
// interaction with the listing (issue 11, docs/decisions/020). A click on a card, a category or a button before that
// waits for the code and is then made on the real page. It loads at once for a signed-in person (whose hearts are
// live) and when the currency is not the server's (the prices change).
const Deferred = deferred<ListingPageProps & { currency: Currency }>(
  'listing',
  () => import('./listing-page.tsx').then((m) => m.ListingPage),
  '.listing',
  () => currentUser() !== null,
);

export function ListingPage(props: ListingPageProps) {
  return <Deferred {...props} currency={useCurrency()} />;
}

/**
 * The listing routes' client loader (listing-data.ts's clientListing: the kept listing, else the server loader). Its
 * code and the page's are one chunk, fetched together on the first client-side navigation to a listing; the navigation
 * ends when both are here, so the page shows at once (suspended on its code, it would leave the previous page on
 * screen under the new address, with the progress bar gone).
 */
export async function clientListing<T extends ListingItem>(
  kind: ListingKind,
  url: URL,
  serverLoader: () => Promise<ListingData<T>>,
): Promise<ListingData<T>> {
  const [data] = await Promise.all([
    import('./listing-data.ts').then((m) => m.clientListing(kind, url, serverLoader)),
    Deferred.load().catch(() => {}),
  ]);
  return data;
}
