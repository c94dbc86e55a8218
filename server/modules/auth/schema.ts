import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';

/**
 * A person's TOTP authenticator (RFC 6238, ADR 054): the shared secret, pending until a first code confirms it,
 * and the last time step a code was accepted for, so that no code is accepted twice. At most one per person.
 */
export const twoFactorTotp = pgTable('two_factor_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32, as the authenticator app was given it. */
  secret: text('secret').notNull(),
  /** Null while the person has not yet typed a first code: the factor does not count. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The RFC 6238 time step of the last accepted code; a code of this step or an earlier one is refused. */
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes, stored as SHA-256 of the 80-bit code (ADR 054). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);
