import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { projects } from './schema.ts';
import { categoryBySlug, categoryRefs, subCategoryBySlug, subCategoryRefs } from '../lookups/index.ts';
import { people, publicPersonColumns } from '../users/index.ts';
import { notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import { timestampKey } from '../../platform/listing/listing.ts';
import type { AdminProject } from '#contract/moderation';
import { CATALOG_MESSAGES, type Project } from '#contract/catalog';
import type { Presence } from './deps.ts';
import { presentAdminProject, presentProject, projectColumns, type ProjectRecord } from './presenter.ts';

// The projects as the module reads them (with their category, sub-category and customer), and their
// presentation with the customers' live online state: what every query and command answers with.

const categoryRef = categoryRefs('category');
const subRef = subCategoryRefs('sub');
/** The customers as the records join them (the admin list searches their email and user name). */
export const customer = people('customer');

/** Projects with their category, sub-category and customer. */
export function projectRecords(db: Db) {
  return db
    .select({
      project: projectColumns,
      category: { slug: categoryRef.slug, title: categoryRef.title },
      sub: subRef.slug,
      customer: { ...publicPersonColumns(customer), email: customer.email, preferences: customer.preferences, blockedAt: customer.blockedAt },
      createdKey: timestampKey(projects.createdAt),
    })
    .from(projects)
    .innerJoin(categoryRef, eq(categoryRef.id, projects.categoryId))
    .leftJoin(subRef, eq(subRef.id, projects.subCategoryId))
    .innerJoin(customer, eq(customer.id, projects.customerId))
    .$dynamic();
}

/** One project's record; null when the id is malformed or unknown. */
export async function projectRecord(db: Db, id: string): Promise<ProjectRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await projectRecords(db).where(eq(projects.id, id)).limit(1);
  return row ?? null;
}

/** Presents records with their customers' live online state. */
export async function presentProjects(presence: Presence, records: ProjectRecord[]): Promise<Project[]> {
  const online = await presence.onlineAmong(records.map((r) => r.customer.id));
  return records.map((r) => presentProject(r, online.has(r.customer.id)));
}

export async function presentAdminProjects(presence: Presence, records: ProjectRecord[]): Promise<AdminProject[]> {
  const online = await presence.onlineAmong(records.map((r) => r.customer.id));
  return records.map((r) => presentAdminProject(r, online.has(r.customer.id)));
}

/** One project presented, read anew (after a change); 404 when it is gone. */
export async function presentProjectById(deps: { db: Db; presence: Presence }, id: string): Promise<Project> {
  const record = await projectRecord(deps.db, id);
  if (!record) throw notFound(CATALOG_MESSAGES.projectNotFound);
  const [presented] = await presentProjects(deps.presence, [record]);
  return presented!;
}

/** The id of a category by slug, and of a sub-category (of that category when given) by slug; null: none. */
export async function categoryFilter(db: Db, category?: string, sub?: string): Promise<SQL[] | null> {
  const where: SQL[] = [];
  let categoryId: string | undefined;
  if (category) {
    const row = await categoryBySlug(db, category);
    if (!row) return null;
    categoryId = row.id;
    where.push(eq(projects.categoryId, row.id));
  }
  if (sub) {
    const row = await subCategoryBySlug(db, sub);
    if (!row || (categoryId && row.categoryId !== categoryId)) return null;
    where.push(eq(projects.subCategoryId, row.id));
  }
  return where;
}
