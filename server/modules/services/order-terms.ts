import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { services } from './schema.ts';

// What the orders module reads of a service being ordered from its page (ADR 025): who sells it, whether it is
// active, its title and its terms (base offer, packages, extras). The seller's unpublished edit and the
// moderation notes stay the services module's own.

const orderTerms = {
  id: services.id,
  sellerId: services.sellerId,
  status: services.status,
  title: services.title,
  price: services.price,
  days: services.days,
  revisions: services.revisions,
  packages: services.packages,
  extras: services.extras,
};

/** A service as an order of it is made from. */
export type ServiceForOrder = { [K in keyof typeof orderTerms]: (typeof services.$inferSelect)[K] };

/** The service `id` with what an order of it needs, or undefined when there is none. */
export async function serviceForOrder(db: Db, id: string): Promise<ServiceForOrder | undefined> {
  const [service] = await db.select(orderTerms).from(services).where(eq(services.id, id)).limit(1);
  return service;
}
