import { sql } from 'drizzle-orm';
import { services } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a service's pictures are public; those of an edit waiting for moderation are
// its seller's and the moderators' until it is approved.
export const serviceFileUses = [
  defineFileUse({
    what: 'service images',
    columns: [services.images],
    names: (file) => sql`exists (select 1 from ${services} where ${namesFile(services.images, file)})`,
    readers: 'everyone',
  }),
  defineFileUse({
    what: "images of a service's edit under moderation",
    columns: [services.pendingEdit],
    names: (file) =>
      sql`exists (select 1 from ${services} where ${services.pendingEdit} is not null and (${services.pendingEdit} -> 'values' -> 'images') ?| ${file})`,
    readers: 'owner',
  }),
];
