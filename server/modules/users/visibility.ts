import { and, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { users, type UserRow } from './schema.ts';
import type { People } from './read-model.ts';
import { definePolicy, isAdmin } from '../../platform/policy.ts';
import { CATALOG_MESSAGES } from '#contract/catalog';

// Who sees a person (ADR 016). PRODUCT.md: a blocked person's page and everything they publish disappear from
// the public; admins still see them. These rules are the only definition of "a visible person": services,
// projects, people, favourites and the sitemap build on them; written over the users table
// or over the `people()` read model that other modules join, kept here beside it.

/** A person the public may see: not blocked. */
export function isVisiblePerson(person: Pick<UserRow, 'blockedAt'>): boolean {
  return person.blockedAt === null;
}

/** A person the public may see (not blocked), in SQL over a `people()` alias. */
export function visiblePersonOf(p: People): SQL {
  return isNull(p.blockedAt);
}

/** A freelancer the public may see (a seller who is not blocked), in SQL over a `people()` alias. */
export function visibleFreelancerOf(p: People): SQL {
  return and(sql`'seller' = any(${p.roles})`, visiblePersonOf(p))!;
}

/**
 * "Owned by a visible person", on the owner's id column of another table: an anti-join against
 * users_blocked_idx (blocked people are few), so a listing need not join users before it sorts and cuts its
 * page — a join would read every seller first. `not exists` rather than `not in`: the planner estimates it
 * right, and listings rely on its estimates (listingTotal).
 */
export function ownedByVisiblePerson(ownerId: SQLWrapper): SQL {
  return sql`not exists (select 1 from ${users} where ${users.id} = ${ownerId} and ${users.blockedAt} is not null)`;
}

export const personPolicy = definePolicy<{ view: Pick<UserRow, 'blockedAt'> }>(CATALOG_MESSAGES.personNotFound, {
  view: (actor, person) => (isVisiblePerson(person) || isAdmin(actor) ? 'allow' : 'hidden'),
});
