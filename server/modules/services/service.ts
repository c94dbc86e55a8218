import type { UserRow } from '../users/index.ts';
import type { Service, ServiceCard } from '#contract/catalog';
import { adminUpdateService } from './commands/admin-update.ts';
import { changeServiceStatus } from './commands/change-status.ts';
import { createService } from './commands/create.ts';
import { moderateService, type AdminDecision } from './commands/moderate.ts';
import { removeService } from './commands/remove.ts';
import { updateService } from './commands/update.ts';
import type { ServiceCatalogDeps, ServiceInputData, ServicesQuery, ServiceStatusAction } from './deps.ts';
import { adminServices, type AdminServicesQuery } from './queries/admin-list.ts';
import { reloadService, sellerOwnServices } from './queries/detail.ts';
import { SearchFinds } from './queries/finds.ts';
import { listServices } from './queries/listing.ts';
import type { ServiceListing } from './queries/listing-plan.ts';
import { servicePage } from './queries/page.ts';
import { ServiceViews } from './views.ts';
import { sellerServiceCards } from './ports.ts';

// Services (kworks): the public listing and page, the seller's own services and their states, and moderation.
// One file per command (commands/) and per group of reads (queries/); this class is their one face for the
// routes and the app, and holds what lives as long as the app: the views not yet written, the search answers kept.
//
// States: draft → moderation → active | rejected (with a reason); active ⇄ paused by the seller; any edit of a
// published, paused or rejected service sends it back to moderation; an admin may hide any service (with a
// reason) and restore a hidden one. Only active services of sellers who are not blocked are public.

export class ServiceCatalog {
  private readonly views: ServiceViews;
  private readonly finds: SearchFinds;

  constructor(private readonly deps: ServiceCatalogDeps) {
    this.views = new ServiceViews(deps.db, deps.log, deps.seen);
    this.finds = new SearchFinds(deps);
  }

  /** Writes the pending page views now (on shutdown, and in tests that read the table). */
  flushViews(): Promise<void> {
    return this.views.flush();
  }

  /** One page of the public listing (see listServices). */
  list(query: ServicesQuery): Promise<ServiceListing> {
    return listServices(this.deps, query);
  }

  /** Which of these search texts find at least one public service now (the header's suggestions, ADR 028). */
  findsSomething(texts: readonly string[]): Promise<Set<string>> {
    return this.finds.among(texts);
  }

  /** A service page, as servicePolicy lets the viewer see it; a view counts once a day per visitor. */
  get(viewer: UserRow | null, id: string, visitor: string): Promise<Service> {
    return servicePage(this.deps, this.views, viewer, id, visitor);
  }

  /** A seller's public services, most popular first, at most `limit`, and how many there are in all. */
  ofSeller(sellerId: string, limit: number): Promise<{ cards: ServiceCard[]; total: number }> {
    return sellerServiceCards(this.deps.db, this.deps.realtime, sellerId, limit);
  }

  /**
   * A guest's view of a public service whose page was sent from the page cache (ADR 021): counted as get() counts
   * it, without loading the service again (the kept page was rendered for a guest, so the service was public).
   */
  async countView(id: string, visitor: string): Promise<void> {
    await this.views.count(id, visitor);
  }

  /** The seller's own services in every state, newest first. */
  mine(user: UserRow): Promise<Service[]> {
    return sellerOwnServices(this.deps, user);
  }

  create(seller: UserRow, input: ServiceInputData): Promise<Service> {
    return createService(this.deps, seller, input);
  }

  update(user: UserRow, id: string, input: ServiceInputData): Promise<Service> {
    return updateService(this.deps, user, id, input);
  }

  remove(user: UserRow, id: string): Promise<void> {
    return removeService(this.deps, user, id);
  }

  changeStatus(user: UserRow, id: string, action: ServiceStatusAction): Promise<Service> {
    return changeServiceStatus(this.deps, user, id, action);
  }

  adminList(query: AdminServicesQuery): Promise<{ result: Service[]; total: number; next: string | null }> {
    return adminServices(this.deps, query);
  }

  /** Any service in any state, for an admin. */
  adminGet(id: string): Promise<Service> {
    return reloadService(this.deps, id);
  }

  decide(admin: UserRow, id: string, decision: AdminDecision): Promise<Service> {
    return moderateService(this.deps, admin, id, decision);
  }

  adminUpdate(admin: UserRow, id: string, input: ServiceInputData): Promise<Service> {
    return adminUpdateService(this.deps, admin, id, input);
  }
}
