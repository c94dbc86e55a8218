import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { projects } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { isUuid } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import type { projectDecisionSchema } from '#contract/moderation';
import { CATALOG_MESSAGES } from '#contract/catalog';
import type { ProjectDeps } from '../deps.ts';
import { projectColumns, type ProjectRecord } from '../presenter.ts';
import { projectRecord } from '../records.ts';
import { cannotChange } from './input.ts';
import { tellOwner } from './tell-owner.ts';

/**
 * PATCH /api/admin/projects/{id}: hide a project (any state but hidden; a reason is required) or restore a
 * hidden one (back to active). Recorded in the audit log in the same transaction; the owner gets a letter.
 */
export async function moderateProject(
  { withTx, letters }: ProjectDeps,
  admin: UserRow,
  id: string,
  decision: z.output<typeof projectDecisionSchema>,
): Promise<ProjectRecord> {
  if (!isUuid(id)) throw notFound(CATALOG_MESSAGES.projectNotFound);
  const hide = decision.status === 'hidden';
  return withTx(userActor(admin), async ({ tx, outbox }) => {
    const [row] = await tx.select(projectColumns).from(projects).where(eq(projects.id, id)).for('update');
    if (!row) throw notFound(CATALOG_MESSAGES.projectNotFound);
    if (hide ? row.status === 'hidden' : row.status !== 'hidden') throw cannotChange();
    await tx
      .update(projects)
      .set(hide ? { status: 'hidden', hiddenReason: decision.reason!, updatedAt: sql`now()` } : { status: 'active', hiddenReason: null, updatedAt: sql`now()` })
      .where(eq(projects.id, id));
    await audit(tx, {
      actorId: admin.id,
      action: hide ? 'project.hide' : 'project.restore',
      targetType: 'project',
      targetId: id,
      details: { from: row.status, ...(decision.reason ? { reason: decision.reason } : {}) },
    });
    const record = (await projectRecord(tx, id))!;
    tellOwner(letters, outbox, record, hide ? 'hide' : 'restore', decision.reason ?? null);
    // Guests' kept pages show it at once, on every instance.
    pagesChanged(outbox);
    return record;
  });
}
