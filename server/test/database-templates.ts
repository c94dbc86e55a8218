import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../db/client.ts';
import { seedReference } from '../db/seed/reference.ts';

// Vitest's global setup of the database projects: the migrated database (with and without the reference data) is
// made once per run, and every test file's database starts as a copy of it (server/test/database.ts) instead of
// running every migration again: a PGlite dump it loads, a PostgreSQL template it is created from. The workers
// inherit the variables set here; a test run without them (a bench, a single file outside vitest) migrates.

export const TEMPLATE_ENV = {
  pglite: { reference: 'TEST_PGLITE_TEMPLATE', bare: 'TEST_PGLITE_TEMPLATE_BARE' },
  postgres: { reference: 'TEST_PG_TEMPLATE', bare: 'TEST_PG_TEMPLATE_BARE' },
} as const;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  return project.name === 'postgres' ? postgresTemplates() : pgliteTemplates();
}

async function pgliteTemplates() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'podryad-test-templates-'));
  for (const reference of [true, false]) {
    const database = await openPglite();
    await database.migrate();
    if (reference) await seedReference(database.db);
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const file = path.join(dir, reference ? 'reference.tar' : 'bare.tar');
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    await database.close();
    process.env[TEMPLATE_ENV.pglite[reference ? 'reference' : 'bare']] = file;
  }
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplates() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return async () => {};
  const suffix = randomBytes(6).toString('hex');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const names: string[] = [];
  try {
    for (const reference of [true, false]) {
      const name = `podryad_template_${suffix}_${reference ? 'reference' : 'bare'}`;
      await admin.query(`create database ${name}`);
      names.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
      const database = openPostgres(url.toString(), 1);
      await database.migrate();
      if (reference) await seedReference(database.db);
      await database.close();
      process.env[TEMPLATE_ENV.postgres[reference ? 'reference' : 'bare']] = name;
    }
  } finally {
    await admin.end();
  }
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    for (const name of names) await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}
