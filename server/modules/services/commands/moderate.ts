import { and, eq, inArray, sql } from 'drizzle-orm';
import { services, type ServiceStatus } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import type { ServiceDecision } from '../../../platform/letters/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import type { Service } from '#contract/catalog';
import { MODERATION_MESSAGES } from '#contract/moderation';
import type { ServiceCatalogDeps } from '../deps.ts';
import type { ServiceJoined } from '../presenter.ts';
import { existingService, reloadService } from '../queries/detail.ts';
import { cannotChange, fieldError } from './fields.ts';
import { notifyOwner } from './notify-owner.ts';

/** What an admin can set (PATCH /api/admin/services/{id}); a reason goes with rejected and hidden. */
export type AdminDecision = { status: 'active' | 'rejected' | 'hidden'; reason?: string | undefined };

export const ADMIN_SERVICE_MESSAGES = {
  reasonRequired: MODERATION_MESSAGES.reasonRequired,
} as const;

/** Which decision (its audit action and letter) setting `status` is, from the `current` state; null when it does not apply. */
function adminTransition(
  current: ServiceStatus,
  status: AdminDecision['status'],
): { decision: ServiceDecision; from: ServiceStatus[] } | null {
  if (status === 'active') {
    if (current === 'moderation') return { decision: 'approve', from: ['moderation'] };
    if (current === 'hidden') return { decision: 'restore', from: ['hidden'] };
    return null;
  }
  if (status === 'rejected') return current === 'moderation' ? { decision: 'reject', from: ['moderation'] } : null;
  return current === 'hidden' ? null : { decision: 'hide', from: [current] };
}

/**
 * approve (moderation → active, published now unless it was before), reject (moderation → rejected),
 * hide (any state → hidden), restore (hidden → active). Recorded in the audit log in the same transaction;
 * the owner gets a letter. (In-app notifications join the letter with the notifications feature.)
 */
export async function moderateService(deps: ServiceCatalogDeps, admin: UserRow, id: string, { status, reason }: AdminDecision): Promise<Service> {
  if (status !== 'active' && !reason) throw fieldError('reason', ADMIN_SERVICE_MESSAGES.reasonRequired);
  const current = await existingService(deps.db, id);
  if (current.service.status === 'active' && current.service.pendingEdit && status !== 'hidden') {
    return moderateEdit(deps, admin, current, status === 'active' ? null : (reason ?? null));
  }
  const transition = adminTransition(current.service.status, status);
  if (!transition) throw cannotChange();
  const { decision, from } = transition;
  const kept = status === 'active' ? null : (reason ?? null);
  await deps.withTx(userActor(admin), async ({ tx, outbox }) => {
    const [row] = await tx
      .update(services)
      .set({
        status,
        rejectReason: kept,
        updatedAt: new Date(),
        ...(status === 'active' ? { publishedAt: sql`coalesce(${services.publishedAt}, now())` } : {}),
      })
      .where(and(eq(services.id, id), inArray(services.status, from)))
      .returning({ id: services.id });
    // Changed by someone else in between: the decision was about a state that is gone.
    if (!row) throw cannotChange();
    await audit(tx, { actorId: admin.id, action: `service.${decision}`, targetType: 'service', targetId: id, details: kept ? { reason: kept } : {} });
    notifyOwner(deps, outbox, current, decision, kept);
    // Guests' kept pages show it at once, on every instance.
    pagesChanged(outbox);
  });
  return reloadService(deps, id);
}

/**
 * The decision on an edit of a live service (updateService): approved, the edit replaces the public version;
 * rejected (`reason`), it is dropped and the approved version stays, with the reason for its owner. The service
 * stays active either way. Audited, with the owner's letter, in one transaction.
 */
async function moderateEdit(deps: ServiceCatalogDeps, admin: UserRow, current: ServiceJoined, reason: string | null): Promise<Service> {
  const id = current.service.id;
  const pending = current.service.pendingEdit!;
  await deps.withTx(userActor(admin), async ({ tx, outbox }) => {
    const [row] = await tx
      .update(services)
      .set({ ...(reason === null ? pending.values : {}), pendingEdit: null, rejectReason: reason, updatedAt: new Date() })
      // The edit the moderator looked at, not one sent meanwhile.
      .where(and(eq(services.id, id), eq(services.status, 'active'), sql`${services.pendingEdit} ->> 'submittedAt' = ${pending.submittedAt}`))
      .returning({ id: services.id });
    if (!row) throw cannotChange();
    const decision = reason === null ? 'approve' : 'reject';
    await audit(tx, { actorId: admin.id, action: `service.${decision}-edit`, targetType: 'service', targetId: id, details: reason ? { reason } : {} });
    notifyOwner(deps, outbox, { ...current, service: { ...current.service, title: pending.view.title } }, decision, reason);
    if (reason === null) pagesChanged(outbox);
  });
  return reloadService(deps, id);
}
