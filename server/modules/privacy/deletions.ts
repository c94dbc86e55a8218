import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import type { DeletionRequest } from '#contract/privacy';
import { privacyDeletionRequests, type DeletionRequestRow } from './schema.ts';

export const presentDeletion = (r: DeletionRequestRow): DeletionRequest => ({
  _id: r.id,
  status: r.status,
  requested_at: r.requestedAt.toISOString(),
  due_at: r.dueAt.toISOString(),
  cancelled_at: r.cancelledAt?.toISOString() ?? null,
  done_at: r.doneAt?.toISOString() ?? null,
});

/** The person's pending deletion request, if any (at most one, by the partial unique index). */
export async function pendingDeletion(db: Db | Tx, userId: string): Promise<DeletionRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(privacyDeletionRequests)
    .where(and(eq(privacyDeletionRequests.userId, userId), eq(privacyDeletionRequests.status, 'pending')))
    .limit(1);
  return row;
}
