import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { FILE_USES } from './file-uses.ts';

// ADR 041: a column whose name says it holds files (an avatar, images, attachments …) is kept by a declared use, or
// the uploads cleanup deletes what it names after a day and the download serves it to its owner alone.

/** Every table file: each module's schema.ts and the platform's (ADR 047). */
const MODULES_DIR = path.join(import.meta.dirname, 'modules');
const SCHEMA_FILES = [
  ...readdirSync(MODULES_DIR)
    .map((name) => path.join(MODULES_DIR, name, 'schema.ts'))
    .filter((file) => existsSync(file)),
  path.join(import.meta.dirname, 'platform', 'schema.ts'),
];
const FILE_COLUMN_RE =
  /(?:^|_)(?:avatars?|covers?|files?|images?|attachments?|photos?|pictures?|logos?|uploads?|documents?|scans?)(?:_|$)/;

async function schemaColumns(): Promise<string[]> {
  const columns: string[] = [];
  for (const file of SCHEMA_FILES) {
    const module: Record<string, unknown> = await import(file);
    for (const value of Object.values(module)) {
      // The files table's own path names the file itself.
      if (!is(value, PgTable) || getTableName(value) === 'files') continue;
      for (const column of getTableConfig(value).columns) columns.push(`${getTableName(value)}.${column.name}`);
    }
  }
  return columns;
}

/** Columns whose name says file but which hold none: a consent's text version (ADR 052). */
const NOT_FILES = new Set(['privacy_consents.document_id']);

const declared = new Set(FILE_USES.flatMap((use) => use.columns.map((c) => `${getTableName(c.table)}.${c.name}`)));

describe('file uses (ADR 041)', () => {
  it('every column named for files is declared by a use', async () => {
    const named = (await schemaColumns()).filter((c) => FILE_COLUMN_RE.test(c.split('.')[1]!));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((c) => !declared.has(c) && !NOT_FILES.has(c))).toEqual([]);
  });

  it('every use declares columns of the schema, under a name of its own', async () => {
    const all = new Set(await schemaColumns());
    expect([...declared].filter((c) => !all.has(c))).toEqual([]);
    const names = FILE_USES.map((use) => use.what);
    expect(new Set(names).size).toBe(names.length);
    for (const use of FILE_USES) expect(use.columns.length, use.what).toBeGreaterThan(0);
  });
});
