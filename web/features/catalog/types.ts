import type { ApiOk } from '#contract/api';
import type { Project, PublicUser, ServiceCard } from '#contract/catalog';

// Answers of the catalogue API as the pages read them (item shapes are in contract/catalog.ts).

/** A keyset page: `next` is the cursor of the following page, null on the last one. */
/** `total_exact: false` marks a total that is the server's rounded estimate of a big set. */
export type ListingAnswer<T> = ApiOk<T[]> & { next?: string | null; total_exact?: boolean };

export type ListingItem = ServiceCard | Project | PublicUser;

/** GET /api/users/{id}: the public person with their profile and active services. */
export type PublicProfile = PublicUser & {
  about: string;
  /** Titles, not ids. */
  city: string | null;
  country: string | null;
  created_at: string;
  /** Active services, most popular first (the first dozen), and how many there are. */
  services: ServiceCard[];
  services_total?: number;
};
