import { sql, type SQL } from 'drizzle-orm';
import { pgTable, text, uuid, integer, timestamp, jsonb, index, primaryKey, check, date } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { categories, subCategories } from '../lookups/schema.ts';
import type { ServiceEditView, ServiceStatus } from '../../../contract/catalog.ts';
import { tsvector, searchDocument } from '../../db/columns.ts';

// Services (kworks): the seller's offers, their daily views and the recently viewed. Money is integer kopecks.

// The states are the contract's (the API's queries and answers name them too).
export { SERVICE_STATUSES, type ServiceStatus } from '../../../contract/catalog.ts';

export interface ServicePackage {
  kind: 'economy' | 'standard' | 'business';
  price: number;
  days: number;
  revisions: number;
  description: string;
}
/** An edit waiting for moderation: the fields as the owner sent them (for the form) and as they will be stored. */
export interface PendingServiceEdit {
  submittedAt: string;
  view: ServiceEditView;
  values: Record<string, unknown>;
}

export interface ServiceExtra {
  title: string;
  price: number;
  days: number;
}

/** The pending list of the GIN indexes a counted view writes to, in kB (PostgreSQL's default is 4096). */
const GIN_PENDING_LIST_KB = 256;

export const services = pgTable(
  'services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id),
    subCategoryId: uuid('sub_category_id').references(() => subCategories.id),
    /** Tags as words, and joined for the search document. */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    tagsText: text('tags_text').notNull().default(''),
    /**
     * The titles of the service's category and sub-category, for the search document (ADR 028). Kept by the
     * database: a trigger fills it on insert and on a change of category, and a change of a category's title
     * rewrites it in that category's services (migration 0012).
     */
    catalogText: text('catalog_text').notNull().default(''),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    price: integer('price').notNull(),
    days: integer('days').notNull(),
    revisions: integer('revisions').notNull().default(2),
    packages: jsonb('packages').$type<ServicePackage[]>().notNull().default([]),
    extras: jsonb('extras').$type<ServiceExtra[]>().notNull().default([]),
    status: text('status').$type<ServiceStatus>().notNull().default('draft'),
    rejectReason: text('reject_reason'),
    /**
     * An owner's edit of an active service, waiting for moderation: the approved version stays public meanwhile
     * and is replaced by this one on approval (issue 15, 3). Null when there is none.
     */
    pendingEdit: jsonb('pending_edit').$type<PendingServiceEdit>(),
    views: integer('views').notNull().default(0),
    ordersCount: integer('orders_count').notNull().default(0),
    /** Sort key of "popular": completed orders weigh 20 views (kept up to date by the writers). */
    popularity: integer('popularity').notNull().default(0),
    /** Mean rating × 100 (0 without reviews) and the number of reviews, from the reviews issue. */
    rating: integer('rating').notNull().default(0),
    reviewsCount: integer('reviews_count').notNull().default(0),
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs((): SQL => searchDocument(sql`title`, sql`tags_text || ' ' || catalog_text`, sql`description`)),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The floor of the operator's minimum price (setting services.minPrice, contract MIN_PRICE_FLOOR).
    check('services_price_min', sql`${t.price} >= 100`),
    // Each counted view rewrites the row (popularity is a listing key, so the update is not HOT), which adds the row's
    // words to the GIN indexes' pending lists; every scan of the index reads its whole list. The default 4 MB cost
    // a search about 2 ms per scan at its fullest; 256 kB bounds that at 1 M services for a sixth more write time
    // on the views' batches, where `fastupdate = off` cost two fifths (ADR 028, session 53 amendment).
    index('services_search_idx').using('gin', t.search).with({ gin_pending_list_limit: GIN_PENDING_LIST_KB }),
    index('services_seller_idx').on(t.sellerId, t.createdAt),
    index('services_status_idx').on(t.status, t.updatedAt),
    // Keyset pagination of the public listing, per sort, overall and within a category.
    index('services_active_new_idx').on(t.publishedAt.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_popular_idx').on(t.popularity.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_price_idx').on(t.price, t.id).where(sql`status = 'active'`),
    index('services_active_rating_idx').on(t.rating.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_cat_new_idx').on(t.categoryId, t.publishedAt.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_cat_popular_idx').on(t.categoryId, t.popularity.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_cat_price_idx').on(t.categoryId, t.price, t.id).where(sql`status = 'active'`),
    index('services_active_cat_rating_idx').on(t.categoryId, t.rating.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_active_sub_popular_idx').on(t.subCategoryId, t.popularity.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('services_tags_idx').using('gin', t.tags).with({ gin_pending_list_limit: GIN_PENDING_LIST_KB }),
    // Whether a file is still used (uploads cleanup).
    index('services_images_idx').using('gin', t.images),
  ],
);

/**
 * Views of each service page per day (Moscow days, ADR 031), fed by the same batched tally that adds to
 * `services.views`: one upsert per service and day for each batch. The seller's dashboard reads it for views by day
 * and the conversion of a period; the running total stays on the service row for the listings.
 */
export const serviceViewsDaily = pgTable(
  'service_views_daily',
  {
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  // The primary key serves the reads: a seller's services, each over a range of days.
  (t) => [primaryKey({ columns: [t.serviceId, t.day] })],
);
export type ServiceViewsDailyRow = typeof serviceViewsDaily.$inferSelect;

/**
 * The services a signed-in person opened, one row per person and service with the last time (issue 15: the signed-in
 * home page's «Вы недавно смотрели»). Written by the service page's read; bounded by the catalogue, not by time.
 */
export const recentViews = pgTable(
  'recent_views',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serviceId] }), index('recent_views_user_idx').on(t.userId, t.viewedAt.desc())],
);
