import { sql } from 'drizzle-orm';
import { check, pgTable, text, uuid, timestamp } from 'drizzle-orm/pg-core';
import { ROUTE_RULE_KINDS } from '#contract/admin';

/**
 * SPEC §2 route rules (ADR 036): a path the app redirects elsewhere, or blocks (the 404 screen), managed by admins
 * on /admin/route-rules. `redirect` is the target of a redirect rule and null for a block.
 */
export const routeRules = pgTable(
  'route_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    path: text('path').notNull().unique(),
    kind: text('kind', { enum: ROUTE_RULE_KINDS }).notNull().default('redirect'),
    redirect: text('redirect'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('route_rules_kind', sql`${t.kind} in ('redirect', 'block')`),
    check('route_rules_target', sql`(${t.kind} = 'redirect') = (${t.redirect} is not null)`),
  ],
);
export type RouteRuleRow = typeof routeRules.$inferSelect;
