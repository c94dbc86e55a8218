import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { projects } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import { auditTrail } from '../../platform/audit.ts';
import { filesByPaths, presentFiles } from '../../platform/files.ts';
import { escapeLike, matches, orderBy, page } from '../../platform/listing/listing.ts';
import { cappedTotal } from '../../platform/listing/totals.ts';
import { searchTsQuery } from '../../platform/listing/search.ts';
import type { AuditEntry } from '#contract/admin';
import type { AdminProject, adminProjectsQuerySchema } from '#contract/moderation';
import { CATALOG_MESSAGES, type myProjectsQuerySchema, type Project } from '#contract/catalog';
import type { Page, ProjectDeps } from './deps.ts';
import { isProjectOwner, isPublicProject, projectPolicy, publicProject } from './policy.ts';
import { customer, presentAdminProjects, presentProjects, projectRecord, projectRecords } from './records.ts';
import { after, cursorOf, PROJECT_SORT_KEYS } from './sort.ts';

// A project's page, the customer's own list, the favourites' cards and the admin area's list and page.

/**
 * GET /api/projects/{id}: the page as projectPolicy lets the viewer see it; a view of a public project by
 * someone other than the owner counts, once a day per visitor (see visitorOf).
 */
export async function getProject(deps: ProjectDeps, id: string, viewer: UserRow | null, visitor: string): Promise<Project> {
  const { db } = deps;
  const record = projectPolicy.authorize(viewer, 'view', await projectRecord(db, id));
  if (!isProjectOwner(viewer, record) && isPublicProject(record) && (await deps.seen.first(`view:project:${record.project.id}:${visitor}`))) {
    const [counted] = await db
      .update(projects)
      .set({ views: sql`${projects.views} + 1` })
      .where(eq(projects.id, record.project.id))
      .returning({ views: projects.views });
    if (counted) record.project.views = counted.views;
  }
  const [presented] = await presentProjects(deps.presence, [record]);
  const attachments = record.project.attachments;
  return { ...presented!, attachment_files: presentFiles(attachments, await filesByPaths(db, attachments)) };
}

/** Those of these projects that are public, presented, in the order of `ids` (no view is counted). */
export async function publicProjectsByIds(deps: ProjectDeps, ids: string[]): Promise<Project[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = await projectRecords(deps.db).where(and(inArray(projects.id, valid), publicProject()));
  const byId = new Map((await presentProjects(deps.presence, rows)).map((p) => [p._id, p]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** GET /api/projects/my: the customer's own projects in every state (or one), newest first. */
export async function myProjects(deps: ProjectDeps, user: UserRow, query: z.output<typeof myProjectsQuerySchema>): Promise<Page<Project>> {
  const { db } = deps;
  const position = after('new', query.cursor)?.[0];
  const where: SQL[] = [eq(projects.customerId, user.id)];
  if (query.status) where.push(eq(projects.status, query.status));
  const filter = and(...where)!;
  const [rows, total] = await Promise.all([
    projectRecords(db)
      .where(and(filter, position))
      .orderBy(...orderBy(PROJECT_SORT_KEYS.new))
      .limit(query.limit + 1),
    cappedTotal(db, db.select({ one: sql`1` }).from(projects).where(filter).$dynamic()),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf('new', r));
  return { result: await presentProjects(deps.presence, kept), total, next };
}

/** GET /api/admin/projects: every project, newest first; q finds by id, customer id, words, title, customer. */
export async function adminListProjects(deps: ProjectDeps, query: z.output<typeof adminProjectsQuerySchema>): Promise<Page<AdminProject>> {
  const { db } = deps;
  const position = after('new', query.cursor)?.[0];
  const where: SQL[] = [];
  if (query.status) where.push(eq(projects.status, query.status));
  const q = query.q?.trim();
  if (q && isUuid(q)) {
    where.push(or(eq(projects.id, q.toLowerCase()), eq(projects.customerId, q.toLowerCase()))!);
  } else if (q) {
    const like = `%${escapeLike(q)}%`;
    const words = await searchTsQuery(q);
    where.push(or(ilike(projects.title, like), ilike(customer.email, like), ilike(customer.userName, like), ...(words ? [matches(projects.search, words)] : []))!);
  }
  const filter = where.length ? and(...where) : undefined;
  const [rows, total] = await Promise.all([
    projectRecords(db)
      .where(and(filter, position))
      .orderBy(...orderBy(PROJECT_SORT_KEYS.new))
      .limit(query.limit + 1),
    cappedTotal(db, db.select({ one: sql`1` }).from(projects).innerJoin(customer, eq(customer.id, projects.customerId)).where(filter).$dynamic()),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf('new', r));
  return { result: await presentAdminProjects(deps.presence, kept), total, next };
}

/** GET /api/admin/projects/{id}: the project and its moderation history. */
export async function adminGetProject(deps: ProjectDeps, id: string): Promise<{ project: AdminProject; audit: AuditEntry[] }> {
  const record = await projectRecord(deps.db, id);
  if (!record) throw notFound(CATALOG_MESSAGES.projectNotFound);
  const [project] = await presentAdminProjects(deps.presence, [record]);
  return { project: project!, audit: await auditTrail(deps.db, 'project', record.project.id) };
}
