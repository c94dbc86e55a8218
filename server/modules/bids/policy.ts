import type { BidRow } from './schema.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { isPublicProject } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';
import type { ProjectStatus } from '#contract/catalog';
import { BID_MESSAGES } from '#contract/bids';

// Who may do what with bids (ADR 016). A bid is its seller's, its project's customer's and admins' to see: to
// anyone else it does not exist (404). A project's bids as a list are its customer's and admins': a member who can
// see the project is refused with 403, one who cannot with 404.

/** A project with its customer (as projects/policy.ts takes it). */
export interface ProjectSubject {
  project: { status: ProjectStatus; customerId: string };
  customer: Pick<UserRow, 'blockedAt'>;
}

export interface BidSubject extends ProjectSubject {
  bid: Pick<BidRow, 'sellerId' | 'status'>;
}

const isCustomer = (actor: Actor, row: ProjectSubject) => actor !== null && actor.id === row.project.customerId;
const isSeller = (actor: Actor, row: BidSubject) => actor !== null && actor.id === row.bid.sellerId;
/** Who may know the bid exists. */
const seesBid = (actor: Actor, row: BidSubject) => isSeller(actor, row) || isCustomer(actor, row) || isAdmin(actor);
/** Who may see the project's page. */
const seesProject = (actor: Actor, row: ProjectSubject) => isPublicProject(row) || isCustomer(actor, row) || isAdmin(actor);

export const bidPolicy = definePolicy<{
  place: ProjectSubject;
  list: ProjectSubject;
  change: BidSubject;
  accept: BidSubject;
}>(BID_MESSAGES.notFound, {
  // A new bid: by a member in seller mode on a project they can see and do not own.
  place: (actor, row) => {
    if (!seesProject(actor, row)) return 'hidden';
    if (isCustomer(actor, row)) return { forbidden: BID_MESSAGES.ownProject };
    if (actor?.activeRole !== 'seller') return { forbidden: BID_MESSAGES.sellersOnly };
    return 'allow';
  },
  // The project's bids: its customer and admins.
  list: (actor, row) => {
    if (isCustomer(actor, row) || isAdmin(actor)) return 'allow';
    return seesProject(actor, row) ? { forbidden: BID_MESSAGES.customerOnly } : 'hidden';
  },
  // Edit and withdraw: the bid's seller only.
  change: (actor, row) => {
    if (isSeller(actor, row)) return 'allow';
    return seesBid(actor, row) ? { forbidden: BID_MESSAGES.sellerOnly } : 'hidden';
  },
  // Accept: the project's customer only.
  accept: (actor, row) => {
    if (isCustomer(actor, row)) return 'allow';
    return seesBid(actor, row) ? { forbidden: BID_MESSAGES.acceptOwn } : 'hidden';
  },
});
