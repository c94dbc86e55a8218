import { and, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { projects, type ProjectStatus } from './schema.ts';
import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { isVisiblePerson, ownedByVisiblePerson, type UserRow } from '../users/index.ts';
import { CATALOG_MESSAGES } from '#contract/catalog';

// Who may do what with a project (ADR 016), and the one definition of its two public conditions:
// - listed: open for bids (active), of a customer the public may see — the listing and the sitemap;
// - public: its page is open (active, in progress, closed), of a customer the public may see — the page and
//   favourites. Archived and hidden projects are their owner's (and admins') only.

export const PUBLIC_PROJECT_STATUSES = ['active', 'in_progress', 'closed'] as const satisfies readonly ProjectStatus[];

export interface ProjectSubject {
  project: { status: ProjectStatus; customerId: string };
  customer: Pick<UserRow, 'blockedAt'>;
}

export function isPublicProject(row: ProjectSubject): boolean {
  return (PUBLIC_PROJECT_STATUSES as readonly string[]).includes(row.project.status) && isVisiblePerson(row.customer);
}

/** A public project, in SQL over `projects`. */
export function publicProject(): SQL {
  return and(inArray(projects.status, [...PUBLIC_PROJECT_STATUSES]), ownedByVisiblePerson(projects.customerId))!;
}

/** "The project of this id is public", on an id column of another table (favourites). */
export function isPublicProjectId(projectId: SQLWrapper): SQL {
  return sql`exists (select 1 from ${projects} where ${projects.id} = ${projectId} and ${publicProject()})`;
}

/** A listed project, in SQL over `projects`; the status is a literal: the listing indexes are partial on it. */
export function listedProject(): SQL {
  return and(sql`${projects.status} = 'active'`, ownedByVisiblePerson(projects.customerId))!;
}

/** The project's customer (a view of their own page does not count). */
export const isProjectOwner = (actor: Actor, row: ProjectSubject) => actor !== null && actor.id === row.project.customerId;

export const projectPolicy = definePolicy<{ view: ProjectSubject; create: { customer: UserRow }; change: ProjectSubject }>(CATALOG_MESSAGES.projectNotFound, {
  // The page: public, or its owner's in every state; admins open any.
  view: (actor, row) => (isPublicProject(row) || isProjectOwner(actor, row) || isAdmin(actor) ? 'allow' : 'hidden'),
  // A new project of this customer: by the customer themself, in the customer's mode.
  create: (actor, { customer }) => (actor?.id === customer.id && customer.activeRole === 'customer' ? 'allow' : { forbidden: CATALOG_MESSAGES.customerOnly }),
  // Edit and delete: the owner only (admins use the admin area). 403 for who may see it.
  change: (actor, row) => {
    if (isProjectOwner(actor, row)) return 'allow';
    return isPublicProject(row) || isAdmin(actor) ? 'forbidden' : 'hidden';
  },
});
