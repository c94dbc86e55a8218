import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categoryRefs } from '../lookups/index.ts';
import { services } from './schema.ts';
import { publicService } from './policy.ts';

// What the sitemap (the seo module) lists of services (ADR 047): the public ones (policy.ts), in pages of the
// sitemap's size.

const categoryRef = categoryRefs('category');

/** How many services are public. */
export async function publicServiceCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(services).where(publicService());
  return row?.n ?? 0;
}

/** One page of the public services in id order, with their category's slug (their page's path). */
export function publicServiceLinks(db: Db, offset: number, limit: number): Promise<{ id: string; slug: string; updatedAt: Date }[]> {
  return db
    .select({ id: services.id, slug: categoryRef.slug, updatedAt: services.updatedAt })
    .from(services)
    .innerJoin(categoryRef, eq(categoryRef.id, services.categoryId))
    .where(publicService())
    .orderBy(asc(services.id))
    .limit(limit)
    .offset(offset);
}
