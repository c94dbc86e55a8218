import { sql } from 'drizzle-orm';
import { users } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a person's avatar is shown wherever they are.
export const userFileUses = [
  defineFileUse({
    what: 'avatars',
    columns: [users.avatar],
    names: (file) => sql`exists (select 1 from ${users} where ${namesFile(users.avatar, file)})`,
    readers: 'everyone',
  }),
];
