import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AppealObjectType, AppealStatus, AppealSubject } from '#contract/appeal-constants';
import { users } from '../users/schema.ts';

/**
 * Appeals to the administration (issue 14, ADR 035): a complaint about an object, an objection to a decision, or a
 * question. The object is a bare id and type (it may be any of several tables, and deleting it must not take the
 * appeal with it); its title is copied when the appeal is written so that the queue still says what it was about.
 */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** A short number to name it by ("Обращение №12"). */
    number: bigint('number', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').$type<AppealSubject>().notNull(),
    objectType: text('object_type').$type<AppealObjectType>(),
    objectId: uuid('object_id'),
    objectTitle: text('object_title'),
    /** Where the author sees the object, and where an admin does (an order differs), as of the writing. */
    objectPath: text('object_path'),
    objectAdminPath: text('object_admin_path'),
    text: text('text').notNull(),
    /** Stored paths (/uploads/…) of the author's own uploads. */
    files: text('files').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<AppealStatus>().notNull().default('new'),
    /** The admin who took it; kept when the admin's account goes (the audit names them). */
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    answer: text('answer'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The address it came from, for the per-address limit. */
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('appeals_status', sql`${t.status} in ('new', 'in_progress', 'closed')`),
    check('appeals_subject', sql`${t.subject} in ('service', 'project', 'user', 'order', 'dispute', 'moderation', 'question')`),
    // A closed appeal has its answer; an object is named by both its type and id, or not at all.
    check('appeals_closed_answered', sql`(${t.status} = 'closed') = (${t.answer} is not null and ${t.closedAt} is not null)`),
    check('appeals_object', sql`(${t.objectType} is null) = (${t.objectId} is null)`),
    uniqueIndex('appeals_number_idx').on(t.number),
    // The author's list, newest first, and the daily limit.
    index('appeals_author_idx').on(t.authorId, t.createdAt.desc(), t.id.desc()),
    // The admin's queue by state, newest first; the per-address count.
    index('appeals_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('appeals_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('appeals_ip_idx').on(t.ip, t.createdAt),
  ],
);

export type AppealRow = typeof appeals.$inferSelect;
