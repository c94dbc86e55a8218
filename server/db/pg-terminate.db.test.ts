import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from './client.ts';
import { serviceUrl } from '../test/services.ts';

// Issue 29: a PostgreSQL connection terminated while a transaction holds it (a failover, a restart,
// pg_terminate_backend) emitted an error on a client nobody listened to, and Node ended the process. Now the
// transaction fails and rolls back, and the pool goes on with a new connection.

const adminUrl = await serviceUrl('PostgreSQL', 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');
const name = `podryad_term_${randomBytes(5).toString('hex')}`;
let database: Database;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl! });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

describe.skipIf(!adminUrl)('a PostgreSQL connection terminated inside a transaction', () => {
  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    await admin((c) => c.query(`create database ${name}`));
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    database = openPostgres(url.toString(), 2);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await database?.close();
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  });

  it('fails that transaction only: no crash, and the next query runs on a new connection', async () => {
    const attempt = database.db.transaction(async (tx) => {
      const [row] = ((await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows;
      // Terminated while the transaction waits between two statements: the client is checked out and idle.
      await admin((c) => c.query('select pg_terminate_backend($1)', [row!.pid]));
      await new Promise((r) => setTimeout(r, 300));
      await tx.execute(sql`select 1`);
    });
    await expect(attempt).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(uncaught).toEqual([]);
    const after = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: unknown[] };
    expect(after.rows).toEqual([{ two: 2 }]);
  });

  it('gives back a connection that died idle in the pool and fails its transaction at `begin`', async () => {
    // One connection: a transaction that kept it would leave every later one waiting forever.
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const one = openPostgres(url.toString(), 1);
    const within = <T>(work: Promise<T>) =>
      Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no connection within 5 s')), 5_000))]);
    try {
      const pool = (one.db as unknown as { $client: pg.Pool }).$client;
      for (let i = 0; i < 10; i++) {
        const [row] = ((await one.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows;
        // Terminated while idle, and used again at once, before or after the pool hears of it: the transaction
        // may fail, but its connection is given back (or dropped), and the next one runs on a live one.
        await admin((c) => c.query('select pg_terminate_backend($1)', [row!.pid]));
        await one.db.transaction(async (tx) => void (await tx.execute(sql`select 1`))).catch(() => {});
        expect(pool.totalCount - pool.idleCount).toBe(0);
        await within(one.db.transaction(async (tx) => void (await tx.execute(sql`select 1`))));
      }
      expect(uncaught).toEqual([]);
    } finally {
      await within(one.close());
    }
  });
});
