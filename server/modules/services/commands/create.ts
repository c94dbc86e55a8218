import { services } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps, ServiceInputData } from '../deps.ts';
import { servicePolicy } from '../policy.ts';
import { reloadService } from '../queries/detail.ts';
import { serviceFields } from './fields.ts';

/** A new service of a confirmed seller: a draft, or straight to moderation with `publish`. */
export async function createService(deps: ServiceCatalogDeps, seller: UserRow, input: ServiceInputData): Promise<Service> {
  servicePolicy.authorize(seller, 'create', { seller });
  const values = await serviceFields(deps, seller.id, input);
  const [row] = await deps.withTx(userActor(seller), ({ tx }) =>
    tx
      .insert(services)
      .values({ ...values, sellerId: seller.id, status: input.publish ? 'moderation' : 'draft' })
      .returning({ id: services.id }),
  );
  return reloadService(deps, row!.id);
}
