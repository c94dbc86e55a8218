import type { UserRow } from '../../users/index.ts';
import type { Service } from '#contract/catalog';
import type { ServiceCatalogDeps } from '../deps.ts';
import { servicePolicy, viewCounts } from '../policy.ts';
import type { ServiceViews } from '../views.ts';
import { findService, presentWithPresence } from './detail.ts';

/**
 * A service page, as servicePolicy lets the viewer see it. A view counts (views and popularity) as viewCounts
 * says, once a day per visitor (see ServiceViews).
 */
export async function servicePage(
  deps: Pick<ServiceCatalogDeps, 'db' | 'realtime'>,
  views: ServiceViews,
  viewer: UserRow | null,
  id: string,
  visitor: string,
): Promise<Service> {
  const row = servicePolicy.authorize(viewer, 'view', await findService(deps.db, id));
  const counts = viewCounts(viewer, row);
  if (counts && viewer) await views.remember(viewer.id, id);
  const unwritten = counts ? await views.count(id, visitor) : views.unwritten(id);
  row.service.views += unwritten;
  row.service.popularity += unwritten;
  return presentWithPresence(deps, row, servicePolicy.can(viewer, 'seePendingEdit', row));
}
