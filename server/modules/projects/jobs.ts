import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { projects } from './schema.ts';

/** PRODUCT.md: an active project with no accepted bid goes to the archive after this many days. */
export const PROJECT_ARCHIVE_DAYS = 30;

/**
 * Archives active projects published more than `days` ago (none of them has an accepted bid: accepting one
 * moves a project to in_progress). A scheduled job; returns the ids it archived.
 */
export async function archiveStaleProjects(db: Db, days = PROJECT_ARCHIVE_DAYS): Promise<string[]> {
  const rows = await db
    .update(projects)
    .set({ status: 'archived', updatedAt: sql`now()` })
    .where(and(eq(projects.status, 'active'), lt(projects.createdAt, sql`now() - make_interval(days => ${days})`)))
    .returning({ id: projects.id });
  return rows.map((r) => r.id);
}
