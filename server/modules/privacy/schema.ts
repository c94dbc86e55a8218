import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { DeletionStatus, PrivacyDocumentKind } from '#contract/privacy';
import { users } from '../users/schema.ts';

/**
 * The operator's texts on personal data (ADR 052): the processing policy (/privacy) and the consent (/consent).
 * A text is never edited in place: a new version is a new row, so a consent always points at the words agreed to.
 */
export const privacyDocuments = pgTable(
  'privacy_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<PrivacyDocumentKind>().notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('privacy_documents_kind', sql`${t.kind} in ('policy', 'consent')`),
    uniqueIndex('privacy_documents_kind_version_idx').on(t.kind, t.version),
  ],
);

/**
 * One consent to one version of the consent text (152-ФЗ art. 9 as of 156-ФЗ): who, when, from which address and
 * browser. The address and browser are cleared when the account is anonymised; the record itself stays.
 */
export const privacyConsents = pgTable(
  'privacy_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    documentId: uuid('document_id')
      .notNull()
      .references(() => privacyDocuments.id),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('privacy_consents_user_idx').on(t.userId, t.givenAt.desc()), index('privacy_consents_given_idx').on(t.givenAt.desc(), t.id.desc())],
);

/**
 * A person's request to delete their account: anonymised by a job once `due_at` passed, unless cancelled first.
 * At most one is pending per person.
 */
export const privacyDeletionRequests = pgTable(
  'privacy_deletion_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').$type<DeletionStatus>().notNull().default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    check('privacy_deletion_requests_status', sql`${t.status} in ('pending', 'cancelled', 'done')`),
    uniqueIndex('privacy_deletion_requests_pending_idx').on(t.userId).where(sql`status = 'pending'`),
    index('privacy_deletion_requests_due_idx').on(t.dueAt).where(sql`status = 'pending'`),
    index('privacy_deletion_requests_requested_idx').on(t.requestedAt.desc(), t.id.desc()),
  ],
);

export type PrivacyDocumentRow = typeof privacyDocuments.$inferSelect;
export type PrivacyConsentRow = typeof privacyConsents.$inferSelect;
export type DeletionRequestRow = typeof privacyDeletionRequests.$inferSelect;
