import { and, eq, sql } from 'drizzle-orm';
import { projects } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import type { ProjectDeps } from '../deps.ts';
import { projectPolicy } from '../policy.ts';
import { projectRecord } from '../records.ts';
import { cannotChange, resolveProjectInput, type ProjectInputData } from './input.ts';

/** PUT /api/projects/{id}: the owner edits a project while it is active (nobody has been chosen yet). Answers its id. */
export async function updateProject({ db }: ProjectDeps, user: UserRow, id: string, input: ProjectInputData): Promise<string> {
  const record = projectPolicy.authorize(user, 'change', await projectRecord(db, id));
  if (record.project.status !== 'active') throw cannotChange();
  const values = await resolveProjectInput(db, user.id, input);
  const updated = await db
    .update(projects)
    .set({ ...values, updatedAt: sql`now()` })
    // The state is checked again in the UPDATE itself: a bid accepted meanwhile wins.
    .where(and(eq(projects.id, record.project.id), eq(projects.status, 'active')))
    .returning({ id: projects.id });
  if (updated.length === 0) throw cannotChange();
  return record.project.id;
}
