import { QueryBuilder } from 'drizzle-orm/pg-core';
import { services } from './schema.ts';

// What other modules may read of a service (ADR 049): a read-only subquery joined under an alias of the caller's
// choice (`serviceRefs('service')`). The seller's unpublished edit, the moderation notes and the search text stay
// the services module's own.

const qb = new QueryBuilder();

/** Services as another module joins them, under the alias `as`. */
export const serviceRefs = <A extends string>(as: A) =>
  qb
    .select({
      id: services.id,
      sellerId: services.sellerId,
      title: services.title,
      categoryId: services.categoryId,
      subCategoryId: services.subCategoryId,
      images: services.images,
      price: services.price,
      days: services.days,
      revisions: services.revisions,
      status: services.status,
      rating: services.rating,
      reviewsCount: services.reviewsCount,
      ordersCount: services.ordersCount,
      views: services.views,
      publishedAt: services.publishedAt,
      createdAt: services.createdAt,
      updatedAt: services.updatedAt,
    })
    .from(services)
    .as(as);
export type ServiceRefs = ReturnType<typeof serviceRefs>;
