import { eq, sql } from 'drizzle-orm';
import { projects } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import { CATALOG_MESSAGES } from '#contract/catalog';
import type { ProjectDeps } from '../deps.ts';
import type { ProjectRecord } from '../presenter.ts';
import { projectRecord } from '../records.ts';
import { resolveProjectInput, type ProjectInputData } from './input.ts';
import { tellOwner } from './tell-owner.ts';

/** PUT /api/admin/projects/{id}: an admin edits a project in any state (attachments stay the customer's files). */
export async function adminUpdateProject({ db, withTx, letters }: ProjectDeps, admin: UserRow, id: string, input: ProjectInputData): Promise<ProjectRecord> {
  const before = await projectRecord(db, id);
  if (!before) throw notFound(CATALOG_MESSAGES.projectNotFound);
  const values = await resolveProjectInput(db, before.project.customerId, input);
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (key) => JSON.stringify(values[key]) !== JSON.stringify(before.project[key]),
  );
  return withTx(userActor(admin), async ({ tx, outbox }) => {
    const updated = await tx
      .update(projects)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(projects.id, before.project.id))
      .returning({ id: projects.id });
    if (updated.length === 0) throw notFound(CATALOG_MESSAGES.projectNotFound);
    await audit(tx, { actorId: admin.id, action: 'project.edit', targetType: 'project', targetId: before.project.id, details: { fields: changed } });
    const record = (await projectRecord(tx, before.project.id))!;
    if (changed.length) tellOwner(letters, outbox, record, 'edit', null);
    // Guests' kept pages show it at once, on every instance.
    pagesChanged(outbox);
    return record;
  });
}
