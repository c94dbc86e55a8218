import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { services } from './schema.ts';

/** The person's own services, for their personal-data export (ADR 052). */
export function servicesOfPerson(db: Db, userId: string) {
  return db
    .select({
      id: services.id,
      title: services.title,
      description: services.description,
      tags: services.tags,
      images: services.images,
      price: services.price,
      days: services.days,
      status: services.status,
      createdAt: services.createdAt,
      updatedAt: services.updatedAt,
    })
    .from(services)
    .where(eq(services.sellerId, userId))
    .orderBy(services.createdAt);
}

/** A deleted account's services leave the catalogue for good (ADR 052). */
export async function hideServicesOf(tx: Tx, userId: string) {
  await tx.update(services).set({ status: 'hidden', pendingEdit: null, updatedAt: new Date() }).where(eq(services.sellerId, userId));
}
