import { and, eq } from 'drizzle-orm';
import { services } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { ServiceCatalogDeps } from '../deps.ts';
import { servicePolicy } from '../policy.ts';
import { findService } from '../queries/detail.ts';

/** Deleted for good, by its owner, in any state. */
export async function removeService({ db, withTx }: Pick<ServiceCatalogDeps, 'db' | 'withTx'>, user: UserRow, id: string): Promise<void> {
  servicePolicy.authorize(user, 'change', await findService(db, id));
  await withTx(userActor(user), ({ tx }) => tx.delete(services).where(and(eq(services.id, id), eq(services.sellerId, user.id))));
}
