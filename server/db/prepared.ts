import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsMapper, type OrderedField } from './row-mapper.ts';

/** What drizzle's `.prepare(name)` answers: a query whose run goes through its `client`. */
interface Prepared {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/** What drizzle's prepared queries (PGlite's and node-postgres') keep of a select's rows, as their `execute` reads it. */
interface Mapped {
  fields?: OrderedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** drizzle's handle (the database, or a transaction: a `Db` too) as far as a run needs it: its session's client. */
interface Handle {
  session: { client: unknown };
}

/**
 * A hot statement, built once and run in whichever transaction (or on the database) the caller hands it (ADR 070):
 * `statement((db) => db.select()…where(eq(t.id, sql.placeholder('id'))).prepare('unique_name'))`, then
 * `await lockIt(ctx.tx).execute({ id })`.
 *
 * A payment makes some 25 statements, and drizzle building each anew was a fifth of its CPU (bench/payments.ts).
 * drizzle's own `.prepare()` binds a statement to the handle it was built on, so one built on the database would run
 * outside the caller's transaction, and one built on a transaction dies with it. Here the SQL text and its parameters
 * are drizzle's, built at the first run, and its rows are mapped by a mapper made once for its fields (row-mapper.ts);
 * each run is that prepared query with the connection of the handle it is given. On PostgreSQL it is a named
 * statement, parsed and planned once per connection (the name must be unique per SQL text); on PGlite every statement
 * is kept by its text anyway (ADR 067).
 *
 * Built once per driver (PGlite's and node-postgres' prepared queries are different classes; a test process may
 * open both): the text is the same for every database of this schema.
 */
export function statement<P extends Prepared>(build: (db: Db) => P): (db: Db) => P {
  const byDriver = new Map<unknown, P>();
  return (db) => {
    const { session } = db as unknown as Handle;
    let prepared = byDriver.get(session.constructor);
    if (!prepared) byDriver.set(session.constructor, (prepared = withRowsMapper(build(db))));
    // The run's own object, its client the handle's connection; everything else is the prepared query's.
    return Object.create(prepared, { client: { value: session.client } }) as P;
  };
}

/** Its rows mapped by a mapper made for its fields (row-mapper.ts), where drizzle would map them field by field. */
function withRowsMapper<P extends Prepared>(prepared: P): P {
  const query = prepared as unknown as Mapped;
  if (query.fields && !query.customResultMapper) query.customResultMapper = rowsMapper(query.fields, query.joinsNotNullableMap);
  return prepared;
}

/** A moment as a statement's parameter `name`, given as ISO text: one SQL text whatever the driver makes of a Date. */
export const momentParam = (name: string) => sql<Date>`${sql.placeholder(name)}::timestamptz`;
