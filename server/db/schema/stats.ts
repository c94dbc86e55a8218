import { date, index, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { services } from './catalog.ts';
import { users } from './users.ts';

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
