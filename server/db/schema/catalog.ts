import { sql, type SQL } from 'drizzle-orm';
import { pgTable, text, uuid, integer, timestamp, jsonb, index, primaryKey, customType, check } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { categories, subCategories } from './lookups.ts';
import type { FavoriteType, ProjectStatus, ServiceEditView, ServiceStatus } from '../../../contract/catalog.ts';

// Services (kworks), projects (customers' requests) and favourites. Money is integer kopecks.

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Russian full-text document: title weighs most (A), then tags with the category and sub-category titles (B),
 * then the description (C). See ADR 028.
 */
const searchDocument = (title: SQL, tags: SQL, description: SQL) =>
  sql`setweight(to_tsvector('russian', coalesce(${title}, '')), 'A') || setweight(to_tsvector('russian', coalesce(${tags}, '')), 'B') || setweight(to_tsvector('russian', coalesce(${description}, '')), 'C')`;

// The states and the favourite types are the contract's (the API's queries and answers name them too).
export { FAVORITE_TYPES, PROJECT_STATUSES, SERVICE_STATUSES, type FavoriteType, type ProjectStatus, type ServiceStatus } from '../../../contract/catalog.ts';

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
    index('services_search_idx').using('gin', t.search),
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
    index('services_tags_idx').using('gin', t.tags),
    // Whether a file is still used (uploads cleanup).
    index('services_images_idx').using('gin', t.images),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id),
    subCategoryId: uuid('sub_category_id').references(() => subCategories.id),
    /** Upper bound of the budget in kopecks; null means "by agreement". */
    budget: integer('budget'),
    days: integer('days'),
    attachments: text('attachments').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<ProjectStatus>().notNull().default('active'),
    hiddenReason: text('hidden_reason'),
    views: integer('views').notNull().default(0),
    bidsCount: integer('bids_count').notNull().default(0),
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs((): SQL => searchDocument(sql`title`, sql`''`, sql`description`)),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('projects_search_idx').using('gin', t.search),
    index('projects_customer_idx').on(t.customerId, t.createdAt),
    index('projects_attachments_idx').using('gin', t.attachments),
    index('projects_active_new_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('projects_active_budget_idx').on(t.budget.desc().nullsLast(), t.id.desc()).where(sql`status = 'active'`),
    index('projects_active_bids_idx').on(t.bidsCount.desc(), t.id.desc()).where(sql`status = 'active'`),
    index('projects_active_cat_new_idx').on(t.categoryId, t.createdAt.desc(), t.id.desc()).where(sql`status = 'active'`),
  ],
);

/** SPEC §3 favourites ({id, type}), synced to the account when signed in. */
export const favorites = pgTable(
  'favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<FavoriteType>().notNull(),
    itemId: uuid('item_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type, t.itemId] })],
);

/**
 * What people search for, normalised (see normalizeSearch), with how many searchers it found something for (one
 * a day per visitor): the header's suggestions offer the popular ones that start with what is typed, never one
 * an admin removed (hidden_at set; the row stays so that searching it again does not bring it back).
 */
export const searchQueries = pgTable(
  'search_queries',
  {
    query: text('query').primaryKey(),
    searches: integer('searches').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  },
  // text_pattern_ops: `like 'лог%'` is an index range whatever the database's collation.
  (t) => [index('search_queries_prefix_idx').on(sql`${t.query} text_pattern_ops`)],
);

/**
 * The words of the catalogue (services' titles, tags, category titles), lower case with ё as е: what a mistyped
 * word of a search is corrected to, by trigram similarity (pg_trgm, ADR 028). Filled by the services and
 * categories triggers (migration 0012); a word is never removed, a correction is offered only when it finds
 * something. The trigram index is hand-written in the migration (it needs the extension first).
 */
export const searchWords = pgTable('search_words', {
  word: text('word').primaryKey(),
});
