import type { Db } from './client.ts';

/**
 * A statement built once per database, for a hot read: drizzle takes about as much CPU to build a query (0.5–1 ms)
 * as PGlite takes to run a lookup by key, and a page reads several. On PostgreSQL the statement is also prepared
 * once per connection under `name` (unique per SQL text), which spares the parsing and planning.
 * Meant for the app's database handle: a transaction passed in would build its own copy.
 */
export function builtOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let statement = byDb.get(db);
    if (!statement) byDb.set(db, (statement = build(db)));
    return statement;
  };
}
