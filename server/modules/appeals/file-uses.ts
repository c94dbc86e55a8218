import { sql } from 'drizzle-orm';
import { appeals } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): an appeal's attachments are its author's own uploads, read by them and the
// admins only (ADR 035).
export const appealFileUses = [
  defineFileUse({
    what: 'appeal attachments',
    columns: [appeals.files],
    names: (file) => sql`exists (select 1 from ${appeals} where ${namesFile(appeals.files, file)})`,
    readers: 'owner',
  }),
];
