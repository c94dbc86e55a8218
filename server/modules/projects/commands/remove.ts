import { and, eq, inArray } from 'drizzle-orm';
import { projects, type ProjectStatus } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { ProjectDeps } from '../deps.ts';
import { projectPolicy } from '../policy.ts';
import { projectRecord } from '../records.ts';
import { cannotChange } from './input.ts';

/** An owner may delete a project unless an order came out of it (in_progress, closed). */
const DELETABLE_STATUSES = ['active', 'archived', 'hidden'] as const satisfies readonly ProjectStatus[];

/** DELETE /api/projects/{id}: the owner removes a project that no order came out of; what others keep of it goes too. */
export async function removeProject({ db, withTx, removed }: ProjectDeps, user: UserRow, id: string): Promise<void> {
  const record = projectPolicy.authorize(user, 'change', await projectRecord(db, id));
  await withTx(userActor(user), async ({ tx }) => {
    const deleted = await tx
      .delete(projects)
      .where(and(eq(projects.id, record.project.id), inArray(projects.status, [...DELETABLE_STATUSES])))
      .returning({ id: projects.id });
    if (deleted.length === 0) throw cannotChange();
    for (const listener of removed) await listener(tx, record.project.id);
  });
}
