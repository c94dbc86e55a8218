import { and, isNull, sql, type SQL } from 'drizzle-orm';
import type { People } from './read-model.ts';

// Who the public may see (visibility.ts), over a `people()` alias instead of the users table: for the modules that
// join people and filter them (the freelancers' listing, favourites, the sitemap). The same SQL as visibility.ts.

/** A person the public may see (not blocked), in SQL over the alias `p`. */
export function visiblePersonOf(p: People): SQL {
  return isNull(p.blockedAt);
}

/** A freelancer the public may see (a seller who is not blocked), in SQL over the alias `p`. */
export function visibleFreelancerOf(p: People): SQL {
  return and(sql`'seller' = any(${p.roles})`, visiblePersonOf(p))!;
}
