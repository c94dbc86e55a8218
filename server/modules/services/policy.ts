import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ServiceStatus } from './schema.ts';
import { services } from './schema.ts';
import { definePolicy, isAdmin, type Actor, type Verdict } from '../../platform/policy.ts';
import { isVisiblePerson, ownedByVisiblePerson, type UserRow } from '../users/index.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { CATALOG_MESSAGES } from '#contract/catalog';

// Who may do what with a service (ADR 016), and the one definition of "a public service": active, of a seller
// the public may see. The listing, the page, a profile's services, favourites and the sitemap all use it.

export interface ServiceSubject {
  service: { status: ServiceStatus };
  seller: Pick<UserRow, 'id' | 'blockedAt'>;
}

export function isPublicService(row: ServiceSubject): boolean {
  return row.service.status === 'active' && isVisiblePerson(row.seller);
}

/**
 * The same in SQL over `services`. The status is a literal, not a parameter: the listing indexes are partial
 * on exactly this predicate.
 */
export function publicService(): SQL {
  return and(sql`${services.status} = 'active'`, ownedByVisiblePerson(services.sellerId))!;
}

/** "A public service has this id", on another table's column that holds a service id (favourites). */
export function isPublicServiceId(serviceId: SQLWrapper): SQL {
  return sql`exists (select 1 from ${services} where ${services.id} = ${serviceId} and ${publicService()})`;
}

const isOwner = (actor: Actor, row: ServiceSubject) => actor !== null && actor.id === row.seller.id;

/** A view of the page counts (views, popularity, the viewer's recent views): a public service, seen by anyone but its owner. */
export function viewCounts(viewer: Actor, row: ServiceSubject): boolean {
  return viewer?.id !== row.seller.id && isPublicService(row);
}

// Edit, delete, pause: the owner only (admins use the admin area). 403 for who may see it.
function change(actor: Actor, row: ServiceSubject): Verdict {
  if (isOwner(actor, row)) return 'allow';
  return isPublicService(row) || isAdmin(actor) ? 'forbidden' : 'hidden';
}

export const servicePolicy = definePolicy<{
  view: ServiceSubject;
  seePendingEdit: ServiceSubject;
  create: { seller: UserRow };
  change: ServiceSubject;
  publish: ServiceSubject;
}>(CATALOG_MESSAGES.serviceNotFound, {
  // The page: public, or its owner's in every state; admins open any (the moderation queue links to it).
  view: (actor, row) => (isPublicService(row) || isOwner(actor, row) || isAdmin(actor) ? 'allow' : 'hidden'),
  // An edit waiting for moderation: its owner's and the moderators'; buyers see the approved version.
  seePendingEdit: (actor, row) => (isOwner(actor, row) || isAdmin(actor) ? 'allow' : 'hidden'),
  // A new service of this seller: by the seller themself, in the seller's mode.
  create: (actor, { seller }) => (actor?.id === seller.id && seller.activeRole === 'seller' ? 'allow' : { forbidden: CATALOG_MESSAGES.sellerOnly }),
  change,
  // Resume or submit for moderation: a change that puts the service before the public, so the owner's email must
  // be confirmed (PRODUCT.md), as for creating one.
  publish: (actor, row) => {
    const verdict = change(actor, row);
    return verdict === 'allow' && !actor?.emailConfirmedAt ? { forbidden: AUTH_MESSAGES.mustConfirm } : verdict;
  },
});
