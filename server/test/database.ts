import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { seedReference } from '../db/seed/reference.ts';

/**
 * A database of its own for one test file: in-memory PGlite, or (TEST_DB=postgres) a fresh database
 * on the server of DATABASE_URL, dropped afterwards. Migrated and seeded with reference data.
 */
export async function createTestDatabase(
  opts: { reference?: boolean } = {},
): Promise<Database & { drop(): Promise<void>; /** PostgreSQL only: for more pools or processes on it. */ url?: string }> {
  const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  let database: Database;
  let drop = async () => {};
  let databaseUrl: string | undefined;

  if (kind === 'postgres') {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
    const name = `podryad_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    database = openPostgres(databaseUrl, 5);
    drop = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    database = await openPglite();
  }

  await database.migrate();
  if (opts.reference !== false) await seedReference(database.db);
  return {
    ...database,
    url: databaseUrl,
    async drop() {
      await database.close();
      await drop();
    },
  };
}
