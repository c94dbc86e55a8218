import { pgTable, text, uuid, timestamp, primaryKey } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';
import type { FavoriteType } from '../../../contract/catalog.ts';

export { FAVORITE_TYPES, type FavoriteType } from '../../../contract/catalog.ts';

/** SPEC §3 favourites ({id, type}), synced to the account when signed in. */
export const favorites = pgTable(
  'favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<FavoriteType>().notNull(),
    itemId: uuid('item_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type, t.itemId] })],
);
