import type { ApiOk } from '#contract/api';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';

// Answers of the catalogue API as the pages read them (item shapes are in contract/catalog.ts).

/** A keyset page: `next` is the cursor of the following page, null on the last one. */
/** `total_exact: false` marks a total that is the server's rounded estimate of a big set. */
export type ListingAnswer<T> = ApiOk<T[]> & { next?: string | null; total_exact?: boolean };

export type ListingItem = ServiceCard | Project | PublicUser;
