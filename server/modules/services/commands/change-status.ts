import { and, eq, inArray } from 'drizzle-orm';
import { services, type ServiceStatus } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps, ServiceStatusAction } from '../deps.ts';
import { servicePolicy } from '../policy.ts';
import { findService, reloadService } from '../queries/detail.ts';
import { cannotChange } from './fields.ts';

/** What a seller may do to their own service: from which states, to which. */
const SELLER_ACTIONS: Record<ServiceStatusAction, { from: ServiceStatus[]; to: ServiceStatus }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  submit: { from: ['draft', 'rejected'], to: 'moderation' },
};

/** pause (active → paused), resume (paused → active), submit (draft or rejected → moderation). */
export async function changeServiceStatus(
  deps: Pick<ServiceCatalogDeps, 'db' | 'realtime' | 'withTx'>,
  user: UserRow,
  id: string,
  action: ServiceStatusAction,
): Promise<Service> {
  servicePolicy.authorize(user, action === 'pause' ? 'change' : 'publish', await findService(deps.db, id));
  const { from, to } = SELLER_ACTIONS[action];
  const [row] = await deps.withTx(userActor(user), ({ tx }) =>
    tx
      .update(services)
      .set({ status: to, updatedAt: new Date(), ...(to === 'moderation' ? { rejectReason: null } : {}) })
      .where(and(eq(services.id, id), inArray(services.status, from)))
      .returning({ id: services.id }),
  );
  if (!row) throw cannotChange();
  return reloadService(deps, id);
}
