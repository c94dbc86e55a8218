import { sql } from 'drizzle-orm';
import { boolean, customType, pgTable, text, uuid, timestamp, jsonb, index, bigint, integer, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { users } from '../modules/users/schema.ts';

// The platform's own tables: the outbox, settings, the audit log, idempotency keys and one-time email links (ADR 047).

/** What a row asks the dispatcher to do (server/platform/dispatcher.ts). */
export const OUTBOX_KINDS = ['socket', 'letter', 'job'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** pending: waiting or leased; failed: gave up after the last attempt (kept, with its error, for people to see). */
export const OUTBOX_STATES = ['pending', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/**
 * The transactional outbox: every side effect of a change (a socket event, a letter, a job to run
 * now or later) is a row written in the same transaction as the change. After the commit a dispatcher claims due
 * rows (FOR UPDATE SKIP LOCKED, with a lease), runs them outside any transaction and deletes them; a failure is
 * retried with backoff and, after the last attempt, kept as `failed` with its error. Recurring jobs are rows too:
 * one pending row per job (dedupe key = job name) that is moved to its next due time when it completes.
 */
export const outbox = pgTable(
  'outbox',
  {
    // Ordered by insertion: events written by one transaction go out in the order they were written.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').$type<OutboxKind>().notNull(),
    /** Job name, socket event name; `letter` for letters. (In-app notifications are rows of their own, ADR 030.) */
    name: text('name').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    /** Not run before this time (the writer's clock). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** Claims so far (a claim counts even if its instance died before finishing). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Leased to an instance until then; after it, another instance may claim the row again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /**
     * Who holds the lease: the instance (stable across its restarts) and its process (one boot). A restarted
     * instance releases at once the rows its previous process held (ADR 061).
     */
    leasedBy: text('leased_by'),
    leasedBoot: text('leased_boot'),
    state: text('state').$type<OutboxState>().notNull().default('pending'),
    /** At most one pending row per key (a recurring job, "auto-accept order X"). */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The dispatcher's claim reads pending rows in due order.
    index('outbox_due_idx').on(t.dueAt, t.id).where(sql`state = 'pending'`),
    uniqueIndex('outbox_dedupe_key_idx').on(t.dedupeKey).where(sql`state = 'pending'`),
  ],
);

export type OutboxRow = typeof outbox.$inferSelect;
export type NewOutboxRow = typeof outbox.$inferInsert;

/**
 * jsonb taken as the driver gives it. pg and PGlite both parse jsonb already; drizzle's own `jsonb` parses a string
 * value once more, so a setting stored as the text "2024" (or "null", "[1]") came back as a number (or null, an array).
 */
const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
});

/** Small key-value store for server state that must survive restarts (currency rates, operator settings). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonValue('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * This deployment's own id, made once by the first instance that starts on the database (ADR 061): every instance
 * of the deployment reads the same one, another deployment has another. Its Redis keys are prefixed with it.
 */
export const deployment = pgTable('deployment', {
  // One row: the key can only be true.
  one: boolean('one').primaryKey().default(true),
  id: text('id').notNull().default(sql`gen_random_uuid()::text`),
});

/** Every admin action: who, what, on what, when. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_created_idx').on(t.createdAt),
    // The admin's audit page filters by who and by what, newest first (ADR 036).
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
  ],
);

/**
 * Idempotency-Key: the first answer to a key is kept and given again to the same request; the same key with
 * another body is refused (409). `response` is null while the first request is still being answered.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The endpoint's name and a SHA-256 of the request body. */
    scope: text('scope').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The process answering the request (instance and boot, ADR 061) and how long its claim holds without being
     * renewed: a claim of a dead process is taken over at once, a live one's is not.
     */
    ownerInstance: text('owner_instance'),
    ownerBoot: text('owner_boot'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const EMAIL_TOKEN_PURPOSES = ['confirm', 'reset', 'email_change'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** One-time, expiring links sent by mail. Only a hash of the token is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<EmailTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** For an email change: the address being confirmed. */
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.purpose)],
);

/**
 * A sign-in on one device (ADR 055): each token names its session (`sid`), and a token is refused once its session
 * has ended. What is kept is what the person's settings page shows: the device, OS and browser named from the
 * User-Agent (not the header itself), the address coarsened to its network (IPv4 /24, IPv6 /48) and its city when a
 * GeoIP database is configured (ADR 059). Ended rows stay:
 * they tell a device seen before from a new one.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved forward by a signed-in request at most every few minutes (SESSION_SEEN_EVERY_MS), not on each one. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The network the sign-in came from: 203.0.113.0/24, 2001:db8:1::/48; null when unknown. */
    address: text('address'),
    /** Where the full address was placed by the operator's GeoIP database (ADR 059): «Москва, Россия»; else null. */
    place: text('place'),
    /** «Смартфон Apple iPhone», «Компьютер»…; the OS («iOS 17.0») and the browser («Safari 17.0»). */
    device: text('device').notNull(),
    os: text('os').notNull(),
    browser: text('browser').notNull(),
    /** The device, OS and browser without versions: what "a device seen before" compares. */
    deviceKey: text('device_key').notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.lastSeenAt), index('sessions_device_idx').on(t.userId, t.deviceKey)],
);

export type SessionRow = typeof sessions.$inferSelect;
