import path from 'node:path';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectRoot } from '../paths.ts';
import { isBackendUnavailable } from '../lib/http.ts';
import { ScopedStorage } from '../lib/scoped-storage.ts';
import { WaitsForItsOwnTransaction } from './own-transaction.ts';

export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  db: Db;
  /**
   * Connections that plan a named statement once, for whatever values (`plan_cache_mode = force_generic_plan`), for
   * the hot reads whose best plan is the same for any value (a listing walking its order's index, ADR 070). `db`'s
   * connections keep PostgreSQL's default, which goes on planning a named statement for its values while its generic
   * plan is estimated dearer, as a price range's always is; everything else (transactions, searches) runs there,
   * planned for its values. On PGlite, `db` itself.
   */
  plannedOnce: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; several instances starting together apply them once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');
// Any fixed number shared by all instances: the key of the advisory lock that serialises migrations.
const MIGRATION_LOCK_KEY = 720_331;

/**
 * PostgreSQL settings PGlite starts with, beside its own (ADR 064). Its shared buffers are memory of the WebAssembly
 * instance that PostgreSQL writes whole at start, so all of them are resident for the life of the process: the
 * default 128 MB was a third of the server's idle memory. 16 MB holds the demo's database many times over; a page
 * not in them is read through the operating system's page cache, not from the disk.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** PGlite in `dataDir` (or in memory when undefined), started from a dump of another's data when given (tests). */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded only for PGlite: a start on PostgreSQL skips them (ADR 018).
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }, { withNamedStatements }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
      import('./pglite-statements.ts'),
    ]);
  // pg_trgm: the search's typo correction (ADR 028); PostgreSQL has it as a contrib extension.
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  // drizzle's reads and writes go through named statements (issue 31); `$client` stays PGlite itself (tests dump it).
  const db = drizzlePglite(withNamedStatements(client) as typeof client) as unknown as Db;
  (db as unknown as { $client: typeof client }).$client = client;
  return {
    db,
    plannedOnce: db,
    kind: 'pglite',
    // One PGlite directory belongs to one process, so there is nobody to race with.
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: async () => void (await client.query('select 1')),
    close: once(() => client.close()),
  };
}

/**
 * A pool of connections to PostgreSQL that survives its connections' deaths; `keepsMemory`: see KEEP_MEMORY;
 * `options`: the connections' settings.
 */
function openPool(url: string, max: number, keepsMemory: boolean, options?: string): pg.Pool {
  // Connections are kept, not closed after 10 idle seconds (node-postgres' default): a new one's process is slow
  // until it has touched the shared buffers (its first run of a search at a million services took 68 ms, then 33,
  // then 16), so closing them after each lull made the first requests of the next one the slowest.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 0,
    ...(options ? { options } : {}),
    // Awaited before the connection is first handed out (a query sent alongside the first caller's is deprecated by
    // node-postgres 8.23 and refused by 9); a failure leaves the process as it was, and the connection is used anyway.
    ...(keepsMemory ? { onConnect: (client: pg.ClientBase) => client.query(KEEP_MEMORY).then(() => {}, () => {}) } : {}),
  });
  // An idle connection the server closed (restart, failover, a dropped test database) must not crash the
  // process: the pool replaces it, and the next query reports any lasting problem.
  pool.on('error', () => {});
  // A connection terminated while checked out (a transaction between two statements when the server restarts, fails
  // over or is told pg_terminate_backend) emits on its client, which has no listener then: without this one, Node
  // ends the process (issue 29). The query in flight, or the next one, fails and the transaction rolls back.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * A PostgreSQL process (with glibc's malloc) gives a query's big blocks of memory back to the system when the query
 * ends, and asks for them again at the next: memory beyond twice its largest block freed so far. On a machine where a
 * page fault is slow (11 µs on this project's machines, where bare hardware takes well under one), a search's bitmap
 * of a common word (some 6 MB at a million services) cost 1,500 faults at every run, half of the read's time. One
 * block of work_mem's size, made and freed when a connection opens, makes its process keep and reuse twice that
 * (ADR 081). At most 32 MB: glibc raises its thresholds no further.
 */
const KEEP_MEMORY = `select length(repeat('x', least(pg_size_bytes(current_setting('work_mem')), 33554432)::int))`;

/**
 * `likePglite` (tests): a query or a transaction through the pools from inside a transaction's work is refused, as
 * PGlite refuses it (ADR 069): on PostgreSQL it takes another connection and works, on PGlite it would hang the
 * server. The test files that run on PostgreSQL alone find it all the same (ADR 094).
 */
export function openPostgres(url: string, max = 10, { keepsMemory = false, likePglite = false } = {}): Database {
  const pool = openPool(url, max, keepsMemory);
  const db = drizzlePg(pool) as unknown as Db;
  // Opens its connections only when first used; half as many, since only some reads run there.
  const plannedOncePool = openPool(url, Math.ceil(max / 2), keepsMemory, '-c plan_cache_mode=force_generic_plan');
  /** The transaction whose work is running in this async context, while it is open (`likePglite` only). */
  const working = likePglite ? new ScopedStorage<{ open: boolean }>() : null;
  if (working) for (const p of [pool, plannedOncePool]) refuseInsideTransaction(p, working);
  // drizzle's transaction on a pool releases its client only once `begin` has succeeded: a connection that died
  // while idle in the pool (a restart, pg_terminate_backend) and fails its `begin` was never given back — one slot
  // fewer each time, until every request waited for a connection and the pool could not end (issue 29). Here the
  // client is checked out and released around drizzle's transaction on that one client; the pool drops it if dead.
  const onClient = new WeakMap<pg.PoolClient, Db>();
  db.transaction = (async (work: never, config?: never) => {
    if (working?.getStore()?.open) throw new WaitsForItsOwnTransaction('begin');
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let session = onClient.get(client);
      if (!session) onClient.set(client, (session = drizzlePg(client) as unknown as Db));
      if (!working) return await session.transaction(work, config);
      const open = { open: true };
      const inside = (tx: unknown) => working.run(open, () => (work as (tx: unknown) => Promise<unknown>)(tx)).finally(() => (open.open = false));
      return await session.transaction(inside, config);
    } catch (err) {
      // A dead connection may not know it yet: dropped rather than handed to the next request.
      if (isBackendUnavailable(err)) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }) as Db['transaction'];
  return {
    db,
    plannedOnce: drizzlePg(plannedOncePool) as unknown as Db,
    kind: 'postgres',
    async migrate() {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(conn), { migrationsFolder });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        conn.release();
      }
    },
    ping: async () => void (await db.execute(sql`select 1`)),
    close: once(async () => void (await Promise.all([pool.end(), plannedOncePool.end()]))),
  };
}

/** The pool's queries refused while a transaction's work runs in the caller's async context. */
function refuseInsideTransaction(pool: pg.Pool, working: ScopedStorage<{ open: boolean }>) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    if (!working.getStore()?.open) return query(...args);
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown } | undefined)?.text);
    return Promise.reject(new WaitsForItsOwnTransaction(text));
  }) as pg.Pool['query'];
}

/** Closing twice (shutdown after a failed request, tests) is harmless. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl
    ? Promise.resolve(openPostgres(opts.databaseUrl, undefined, { keepsMemory: true }))
    : openPglite(path.join(opts.dataDir, 'db'));
}
