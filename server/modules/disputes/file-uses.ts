import { sql } from 'drizzle-orm';
import { disputes } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a dispute's files are its parties' and the arbiters' (ADR 034).
export const disputeFileUses = [
  defineFileUse({
    what: 'dispute files',
    columns: [disputes.files],
    names: (file) => sql`exists (select 1 from ${disputes} where ${namesFile(disputes.files, file)})`,
    readers: (file, reader) =>
      sql`exists (select 1 from ${disputes} where ${namesFile(disputes.files, file)} and ${reader} in (${disputes.openedBy}, ${disputes.respondentId}))`,
  }),
];
