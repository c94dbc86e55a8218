import { eq } from 'drizzle-orm';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { PRIVACY_MESSAGES, type DeletionRequest } from '#contract/privacy';
import { privacyDeletionRequests } from '../schema.ts';
import { pendingDeletion, presentDeletion } from '../deletions.ts';
import type { PrivacyDeps } from '../service.ts';

/** The person changed their mind during the cooling-off period (ADR 052). Audited. */
export async function cancelDeletion(deps: PrivacyDeps, user: UserRow): Promise<DeletionRequest> {
  const row = await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const pending = await pendingDeletion(tx, user.id);
    if (!pending) throw new HttpError(409, PRIVACY_MESSAGES.deletionNotRequested);
    const [cancelled] = await tx
      .update(privacyDeletionRequests)
      .set({ status: 'cancelled', cancelledAt: clock.now() })
      .where(eq(privacyDeletionRequests.id, pending.id))
      .returning();
    await audit(tx, { actorId: user.id, action: 'privacy.deletion_cancel', targetType: 'user', targetId: user.id });
    return cancelled!;
  });
  return presentDeletion(row);
}
