import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { projects } from './schema.ts';

/** The person's own projects, for their personal-data export (ADR 052). */
export function projectsOfPerson(db: Db, userId: string) {
  return db
    .select({
      id: projects.id,
      title: projects.title,
      description: projects.description,
      budget: projects.budget,
      days: projects.days,
      attachments: projects.attachments,
      status: projects.status,
      createdAt: projects.createdAt,
      updatedAt: projects.updatedAt,
    })
    .from(projects)
    .where(eq(projects.customerId, userId))
    .orderBy(projects.createdAt);
}

/** A deleted account's projects leave the listing for good (ADR 052). */
export async function hideProjectsOf(tx: Tx, userId: string) {
  await tx.update(projects).set({ status: 'hidden', updatedAt: new Date() }).where(eq(projects.customerId, userId));
}
