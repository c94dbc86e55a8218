import { and, isNull, sql, type SQL } from 'drizzle-orm';
import type { People } from './read-model.ts';

// Who the public people directory (the people module's freelancers listing, favourites and a person's public page)
// may show, over a `people()` join: the rules of visibility.ts, written over the alias the caller reads people under
// rather than over the users table, which the directory does not take.

/** A person the public may see (not blocked), over a `people()` alias. */
export function visiblePersonIn(p: People): SQL {
  return isNull(p.blockedAt);
}

/** A freelancer the public may see: a seller who is not blocked, over a `people()` alias. */
export function visibleFreelancerIn(p: People): SQL {
  return and(sql`'seller' = any(${p.roles})`, visiblePersonIn(p))!;
}
