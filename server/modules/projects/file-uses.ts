import { sql } from 'drizzle-orm';
import { projects } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a project's attachments are part of its public page.
export const projectFileUses = [
  defineFileUse({
    what: 'project attachments',
    columns: [projects.attachments],
    names: (file) => sql`exists (select 1 from ${projects} where ${namesFile(projects.attachments, file)})`,
    readers: 'everyone',
  }),
];
