import { sql, type SQL } from 'drizzle-orm';
import { pgTable, text, uuid, integer, timestamp, index } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import { categories, subCategories } from '../lookups/schema.ts';
import type { ProjectStatus } from '../../../contract/catalog.ts';
import { tsvector, searchDocument } from '../../db/columns.ts';

export { PROJECT_STATUSES, type ProjectStatus } from '../../../contract/catalog.ts';

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
