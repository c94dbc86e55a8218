import type { UserRow } from '../../users/index.ts';
import { openOrdersOf } from '../../orders/index.ts';
import { balanceOf } from '../../ledger/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { moscowDateTime } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { PRIVACY_MESSAGES, type DeletionRequest } from '#contract/privacy';
import { privacyDeletionRequests } from '../schema.ts';
import { pendingDeletion, presentDeletion } from '../deletions.ts';
import type { PrivacyDeps } from '../service.ts';

const DAY_MS = 86_400_000;
const refused = (message: string) => new HttpError(409, message);

/**
 * A person asks to delete their account (ADR 052): their password confirms it; refused while an order is under way
 * or in a dispute, while money is on their balance, and for an admin. The account is anonymised once the operator's
 * cooling-off period has passed, unless they cancel first. Audited.
 */
export async function requestDeletion(deps: PrivacyDeps, user: UserRow, password: string): Promise<DeletionRequest> {
  // Limited like failed sign-ins, per account: a stolen session cannot find the password out here.
  await deps.passwords.checkCurrentPassword(user, password, 'password');
  if (user.roles.includes('admin')) throw refused(PRIVACY_MESSAGES.deletionAdmin);
  const days = await deps.settings.get('privacy.deletionCoolingOffDays');
  const row = await deps.platform.withTx(userActor(user), async ({ tx, clock, outbox }) => {
    if (await pendingDeletion(tx, user.id)) throw refused(PRIVACY_MESSAGES.deletionAlreadyRequested);
    const orders = await openOrdersOf(tx, user.id);
    if (orders.disputed > 0) throw refused(PRIVACY_MESSAGES.deletionOpenDisputes);
    if (orders.open > 0) throw refused(PRIVACY_MESSAGES.deletionOpenOrders);
    const money =
      (await balanceOf(tx, { kind: 'available', userId: user.id })) + (await balanceOf(tx, { kind: 'withdrawal_hold', userId: user.id }));
    if (money !== 0) throw refused(PRIVACY_MESSAGES.deletionBalance);
    const now = clock.now();
    const [created] = await tx
      .insert(privacyDeletionRequests)
      .values({ userId: user.id, requestedAt: now, dueAt: new Date(now.getTime() + days * DAY_MS) })
      .returning();
    await audit(tx, { actorId: user.id, action: 'privacy.deletion_request', targetType: 'user', targetId: user.id, details: { due: created!.dueAt.toISOString() } });
    deps.letters.notify(outbox, user, 'privacy.deletionRequested', { due: moscowDateTime(created!.dueAt) });
    return created!;
  });
  return presentDeletion(row);
}
