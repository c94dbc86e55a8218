import { pgTable, text, uuid, timestamp, jsonb } from 'drizzle-orm/pg-core';

/** Small key-value store for server state that must survive restarts (currency rates, operator settings). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** SPEC §2 route rules: a path the app should redirect elsewhere (managed by admins). */
export const routeRules = pgTable('route_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  path: text('path').notNull().unique(),
  redirect: text('redirect').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
