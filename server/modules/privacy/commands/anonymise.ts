import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { accountById, anonymiseAccount } from '../../users/index.ts';
import { forgetInOutbox } from '../../../platform/forget.ts';
import { forgetSessionsOf } from '../../../platform/sessions.ts';
import { eraseMessagesOf } from '../../chat/index.ts';
import { hideServicesOf } from '../../services/index.ts';
import { hideProjectsOf } from '../../projects/index.ts';
import { eraseBidsOf } from '../../bids/index.ts';
import { eraseOffersOf } from '../../offers/index.ts';
import { eraseReviewTextsOf } from '../../reviews/index.ts';
import { dropNotificationsOf, unnameInNotifications } from '../../notifications/index.ts';
import { displayName } from '../../../lib/text.ts';
import { openOrdersOf } from '../../orders/index.ts';
import { forgetSelfEmployedOf } from '../../payments/index.ts';
import { balanceOf } from '../../ledger/index.ts';
import { systemActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import type { WithTx } from '../../../platform/tx.ts';
import { privacyConsents, privacyDeletionRequests } from '../schema.ts';
import type { PersonFactors } from '../service.ts';

/** The recurring job that anonymises the accounts whose cooling-off period has passed (ADR 052). */
export const ANONYMISE_JOB = 'privacy-anonymise-due';

/**
 * Anonymises every account whose deletion is due, each in one transaction of the owners' ports: the account, its
 * messages' text, its name in others' notifications, its reviews' words, its bids' and offers' words (a live one withdrawn), its notifications, its services and projects hidden, its consents without
 * address and browser. The ledger, the orders' amounts and the consent records stay. A request whose person got an
 * order or money meanwhile waits (it is checked again on the next run). Answers how many were anonymised.
 */
export async function anonymiseDue(db: Db, withTx: WithTx, now: Date, factors: Pick<PersonFactors, 'forgetFactorsOf'>): Promise<number> {
  const due = await db
    .select()
    .from(privacyDeletionRequests)
    .where(and(eq(privacyDeletionRequests.status, 'pending'), lte(privacyDeletionRequests.dueAt, now)))
    .limit(100);
  let done = 0;
  for (const request of due) {
    const anonymised = await withTx(systemActor(ANONYMISE_JOB), async ({ tx, outbox, clock }) => {
      const orders = await openOrdersOf(tx, request.userId);
      const money =
        (await balanceOf(tx, { kind: 'available', userId: request.userId })) + (await balanceOf(tx, { kind: 'withdrawal_hold', userId: request.userId }));
      if (orders.open > 0 || money !== 0) return false;
      const before = await accountById(tx, request.userId);
      if (before) {
        await forgetInOutbox(tx, { email: before.email, fullName: `${before.name} ${before.surname}`, login: before.userName });
        await unnameInNotifications(tx, request.userId, displayName(before));
      }
      await anonymiseAccount(tx, request.userId);
      await eraseMessagesOf(tx, request.userId);
      await eraseReviewTextsOf(tx, request.userId);
      await dropNotificationsOf(tx, request.userId);
      await hideServicesOf(tx, request.userId);
      await hideProjectsOf(tx, request.userId);
      await eraseBidsOf(tx, request.userId);
      await eraseOffersOf(tx, request.userId);
      await forgetSelfEmployedOf(tx, request.userId);
      await forgetSessionsOf(tx, request.userId);
      await factors.forgetFactorsOf(tx, request.userId);
      await tx.update(privacyConsents).set({ ip: null, userAgent: null }).where(eq(privacyConsents.userId, request.userId));
      await tx.update(privacyDeletionRequests).set({ status: 'done', doneAt: clock.now() }).where(eq(privacyDeletionRequests.id, request.id));
      await audit(tx, { actorId: request.userId, action: 'privacy.anonymise', targetType: 'user', targetId: request.userId });
      // Cached guest pages may still show the person's services and profile.
      pagesChanged(outbox);
      return true;
    });
    if (anonymised) done++;
  }
  return done;
}
