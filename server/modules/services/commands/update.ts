import { and, eq } from 'drizzle-orm';
import { services, type PendingServiceEdit, type ServiceStatus } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps, ServiceInputData } from '../deps.ts';
import { servicePolicy } from '../policy.ts';
import { findService, reloadService } from '../queries/detail.ts';
import { cannotChange, editView, serviceFields } from './fields.ts';

/**
 * An edit by the owner. A draft stays a draft unless `publish`; a service in moderation stays there; a paused
 * or rejected one goes back to moderation. An active one stays public as approved while the edit waits for
 * moderation beside it (pending_edit; a second edit replaces the first), as Kwork does: buyers never meet a 404
 * because the seller fixed a typo. A hidden service cannot be edited.
 */
export async function updateService(deps: ServiceCatalogDeps, user: UserRow, id: string, input: ServiceInputData): Promise<Service> {
  const current = servicePolicy.authorize(user, 'change', await findService(deps.db, id));
  const from = current.service.status;
  if (from === 'hidden') throw cannotChange();
  const values = await serviceFields(deps, user.id, input);
  if (from === 'active') {
    const pendingEdit: PendingServiceEdit = { submittedAt: new Date().toISOString(), view: editView(input, values), values };
    const [row] = await deps.withTx(userActor(user), ({ tx }) =>
      tx
        .update(services)
        .set({ pendingEdit, rejectReason: null, updatedAt: new Date() })
        .where(and(eq(services.id, id), eq(services.status, 'active')))
        .returning({ id: services.id }),
    );
    if (!row) throw cannotChange();
    return reloadService(deps, id);
  }
  const status: ServiceStatus = from === 'draft' && !input.publish ? 'draft' : 'moderation';
  const [row] = await deps.withTx(userActor(user), ({ tx }) =>
    tx
      .update(services)
      .set({ ...values, status, rejectReason: null, pendingEdit: null, updatedAt: new Date() })
      // Unless an admin hid it meanwhile.
      .where(and(eq(services.id, id), eq(services.status, from)))
      .returning({ id: services.id }),
  );
  if (!row) throw cannotChange();
  return reloadService(deps, id);
}
