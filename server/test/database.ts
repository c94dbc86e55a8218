import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { seedReference } from '../db/seed/reference.ts';
import { TEMPLATE_ENV } from './database-templates.ts';

/**
 * A database of its own for one test file: in-memory PGlite, or (TEST_DB=postgres) a fresh database
 * on the server of DATABASE_URL, dropped afterwards. Migrated and seeded with reference data: a copy of the run's
 * template when vitest made one (server/test/database-templates.ts), else migrated here.
 */
export async function createTestDatabase(
  opts: { reference?: boolean } = {},
): Promise<Database & { drop(): Promise<void>; /** PostgreSQL only: for more pools or processes on it. */ url?: string }> {
  const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  let database: Database;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  const variant = opts.reference !== false ? 'reference' : 'bare';
  const template = process.env[TEMPLATE_ENV[kind][variant]];

  if (kind === 'postgres') {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
    const name = `podryad_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
    // A test database need not survive a crash of the PostgreSQL server: commits without waiting for the WAL's
    // flush (the tests' many small transactions waited on the disk far more than on the server).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    // A pool query inside a transaction's work refused, as on PGlite: most files run on PostgreSQL alone (ADR 094).
    database = openPostgres(databaseUrl, 5, { likePglite: true });
    drop = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    database = await openPglite(undefined, pgliteTemplate(variant));
  }

  if (!template) {
    await database.migrate();
    if (opts.reference !== false) await seedReference(database.db);
  }
  return {
    ...database,
    url: databaseUrl,
    async drop() {
      await database.close();
      await drop();
    },
  };
}

const templates = new Map<string, Blob>();

/**
 * The run's migrated PGlite (server/test/database-templates.ts) to start a database from, if vitest made one. Read
 * once per process (a worker's files share this module): the dump is 44 MB, and reading it again for each database
 * was 0.3 s of its 1 s start on a machine slow to map fresh memory (session 65). PGlite only reads the Blob.
 */
export function pgliteTemplate(variant: 'reference' | 'bare' = 'reference'): Blob | undefined {
  const file = process.env[TEMPLATE_ENV.pglite[variant]];
  if (!file) return undefined;
  let template = templates.get(file);
  if (!template) templates.set(file, (template = new Blob([readFileSync(file)])));
  return template;
}
