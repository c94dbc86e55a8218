import { pgTable, text, uuid, timestamp, integer, index } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';

/** Uploaded files. `path` is chosen by the server ("<owner id>/<random>.<ext>"), never by the uploader. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    path: text('path').notNull().unique(),
    originalName: text('original_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_owner_idx').on(t.ownerId)],
);
