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

/**
 * A person's passkeys (WebAuthn, ADR 057): a second factor and a password-less sign-in. The public key of the
 * authenticator's key pair (COSE, base64url), the signature counter it reported last, and its transports (hints for
 * the browser). Anyone may have several; the credential id is unique across all people.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The authenticator's credential id, base64url. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    /** The person's name for it («Ноутбук», «Телефон»). */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * The WebAuthn challenges handed out and not yet answered (ADR 057): each is deleted by the answer that uses it, so
 * it works once, and is refused after `expires_at`. `user_id` is the person it was made for (null for a
 * password-less sign-in, where the passkey tells who signs in).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challenge: text('challenge').primaryKey(),
    /** 'register', 'login' (password-less), 'second-factor' or 'step-up'. */
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);
