import { sql } from 'drizzle-orm';
import { chatMembers, messages } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a file sent in a chat is private to the members of a chat it was sent in (ADR 010).
export const chatFileUses = [
  defineFileUse({
    what: 'chat attachments',
    columns: [messages.files],
    names: (file) => sql`exists (select 1 from ${messages} where ${namesFile(messages.files, file)})`,
    readers: (file, reader) =>
      sql`exists (select 1 from ${messages} inner join ${chatMembers} on ${chatMembers.chatId} = ${messages.chatId} and ${chatMembers.userId} = ${reader} where ${namesFile(messages.files, file)})`,
  }),
];
