import { sql } from 'drizzle-orm';
import { pgTable, text, uuid, integer, timestamp, jsonb, index, uniqueIndex, boolean } from 'drizzle-orm/pg-core';

export const ROLES = ['customer', 'seller', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface UserPreferences {
  currency?: string;
  emailNotifications?: Record<string, boolean>;
}

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().$type<Role[]>().notNull(),
    activeRole: text('active_role').$type<Role>().notNull(),
    referralCode: text('referral_code').notNull().unique(),
    referredBy: uuid('referred_by'),
    avatar: text('avatar'),
    about: text('about').notNull().default(''),
    cityId: uuid('city_id'),
    countryId: uuid('country_id'),
    preferences: jsonb('preferences').$type<UserPreferences>().notNull().default({}),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** Bumped to revoke every token issued before (logout everywhere, password change, block). */
    tokenVersion: integer('token_version').notNull().default(0),
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    /** Since when the person's second factor counts (ADR 054); set and cleared only by the auth module. */
    twoFactorAt: timestamp('two_factor_at', { withTimezone: true }),
    blockReason: text('block_reason'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** Seller statistics kept by the orders and reviews features: completed orders, mean rating × 100. */
    completedOrders: integer('completed_orders').notNull().default(0),
    rating: integer('rating').notNull().default(0),
    /** When this seller last lost a dispute (ADR 034): Профессионал needs none lost in 90 days. */
    lostDisputeAt: timestamp('lost_dispute_at', { withTimezone: true }),
    reviewsCount: integer('reviews_count').notNull().default(0),
    /** SPEC §7 bids flag: a bid arrived on one of this customer's projects since they last opened /profile/bids. */
    bidsUnread: boolean('bids_unread').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_user_name_idx').on(sql`lower(${t.userName})`),
    index('users_created_idx').on(t.createdAt),
    // The few blocked people, for the listings' "not by a blocked owner" check (a hashed set of this index).
    index('users_blocked_idx').on(t.id).where(sql`blocked_at is not null`),
    index('users_avatar_idx').on(t.avatar).where(sql`avatar is not null`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
