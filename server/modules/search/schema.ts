import { sql } from 'drizzle-orm';
import { pgTable, text, integer, timestamp, index } from 'drizzle-orm/pg-core';

/**
 * What people search for, normalised (see normalizeSearch), with how many searchers it found something for (one
 * a day per visitor): the header's suggestions offer the popular ones that start with what is typed, never one
 * an admin removed (hidden_at set; the row stays so that searching it again does not bring it back).
 */
export const searchQueries = pgTable(
  'search_queries',
  {
    query: text('query').primaryKey(),
    searches: integer('searches').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  },
  // text_pattern_ops: `like 'лог%'` is an index range whatever the database's collation.
  (t) => [index('search_queries_prefix_idx').on(sql`${t.query} text_pattern_ops`)],
);

/**
 * The words of the catalogue (services' titles, tags, category titles), lower case with ё as е: what a mistyped
 * word of a search is corrected to, by trigram similarity (pg_trgm, ADR 028). Filled by the services and
 * categories triggers (migration 0012); a word is never removed, a correction is offered only when it finds
 * something. The trigram index is hand-written in the migration (it needs the extension first).
 */
export const searchWords = pgTable('search_words', {
  word: text('word').primaryKey(),
});
