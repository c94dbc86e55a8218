import { sql, type SQL } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';

// Column types and expressions more than one module's tables use.

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Russian full-text document: title weighs most (A), then tags with the category and sub-category titles (B),
 * then the description (C). See ADR 028.
 */
export const searchDocument = (title: SQL, tags: SQL, description: SQL) =>
  sql`setweight(to_tsvector('russian', coalesce(${title}, '')), 'A') || setweight(to_tsvector('russian', coalesce(${tags}, '')), 'B') || setweight(to_tsvector('russian', coalesce(${description}, '')), 'C')`;
