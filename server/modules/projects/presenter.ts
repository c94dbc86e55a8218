// How a project leaves the module: the joined record a page needs and the answers SPEC gives for it.
import { getTableColumns } from 'drizzle-orm';
import type { Project } from '#contract/catalog';
import type { AdminProject } from '#contract/moderation';
import { projects } from './schema.ts';
import { presentPublicUser, type PublicUserRow, type UserRow } from '../users/index.ts';

// Everything but the search document (a tsvector nobody reads).
export const { search: _search, ...projectColumns } = getTableColumns(projects);

export type ProjectRow = Omit<typeof projects.$inferSelect, 'search'>;

/** A project with what its presentation needs. */
export interface ProjectRecord {
  project: ProjectRow;
  category: { slug: string; title: string };
  sub: string | null;
  /** The customer's public face, and what the policies and their letters need. */
  customer: PublicUserRow & Pick<UserRow, 'email' | 'preferences' | 'blockedAt'>;
  /**
   * created_at at full (microsecond) precision, for cursors: a JavaScript Date keeps milliseconds only, and a
   * cursor made from it would skip or repeat rows.
   */
  createdKey: string;
}

export function presentProject({ project: p, category, sub, customer }: ProjectRecord, online: boolean): Project {
  return {
    _id: p.id,
    title: p.title,
    description: p.description,
    category: category.slug,
    category_title: category.title,
    sub,
    budget: p.budget,
    days: p.days,
    attachments: p.attachments,
    status: p.status,
    hidden_reason: p.hiddenReason,
    bids_count: p.bidsCount,
    views: p.views,
    created_at: p.createdAt.toISOString(),
    customer: presentPublicUser(customer, online),
  };
}

export function presentAdminProject(record: ProjectRecord, online: boolean): AdminProject {
  return { ...presentProject(record, online), customer_email: record.customer.email, updated_at: record.project.updatedAt.toISOString() };
}
