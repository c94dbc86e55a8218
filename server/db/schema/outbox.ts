import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
