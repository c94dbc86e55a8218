import { eq } from 'drizzle-orm';
import { services } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps, ServiceInputData } from '../deps.ts';
import { existingService, reloadService } from '../queries/detail.ts';
import { serviceFields } from './fields.ts';
import { notifyOwner } from './notify-owner.ts';

/** An admin's edit of the fields (say, a wrong category or a forbidden word); the state stays as it is. */
export async function adminUpdateService(deps: ServiceCatalogDeps, admin: UserRow, id: string, input: ServiceInputData): Promise<Service> {
  const current = await existingService(deps.db, id);
  // The images stay the seller's own files.
  const values = await serviceFields(deps, current.seller.id, input);
  await deps.withTx(userActor(admin), async ({ tx, outbox }) => {
    await tx
      .update(services)
      // The admin's version is the one that counts: an edit that was waiting beside it is settled by it.
      .set({ ...values, pendingEdit: null, updatedAt: new Date() })
      .where(eq(services.id, id));
    await audit(tx, { actorId: admin.id, action: 'service.edit', targetType: 'service', targetId: id });
    notifyOwner(deps, outbox, current, 'edit', null);
    // Guests' kept pages show it at once, on every instance.
    pagesChanged(outbox);
  });
  return reloadService(deps, id);
}
