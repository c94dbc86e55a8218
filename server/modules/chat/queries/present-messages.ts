import { asc, eq, inArray, sql } from 'drizzle-orm';
import { statement } from '../../../db/prepared.ts';
import { chatMembers } from '../schema.ts';
import { filesByPaths, type FileRow } from '../../../platform/files.ts';
import type { Message } from '#contract/chat';
import type { ChatEnv } from '../context.ts';
import { presentMessage, type ChatPerson, type MessageRow } from '../presenter.ts';
import { chatPeople, person } from '../query-parts.ts';

// What presenting messages and chats needs looked up: the chats' members, the senders, the attached files.

// Built once (ADR 070): every message sent is presented with its chat's members.
const members = statement((db) =>
  db
    .select({ chatId: chatMembers.chatId, user: person })
    .from(chatMembers)
    .innerJoin(chatPeople, eq(chatPeople.id, chatMembers.userId))
    .where(sql`${chatMembers.chatId} = any(${sql.placeholder('chats')}::uuid[])`)
    .orderBy(asc(chatMembers.joinedAt), asc(chatMembers.userId))
    .prepare('chat_members_of'),
);

/** Members of the chats (what is shown of them), in the order they joined. */
export async function membersOf({ db }: ChatEnv, chatIds: string[]): Promise<Map<string, ChatPerson[]>> {
  const byChat = new Map<string, ChatPerson[]>(chatIds.map((id) => [id, []]));
  if (chatIds.length === 0) return byChat;
  for (const r of await members(db).execute({ chats: chatIds })) byChat.get(r.chatId)?.push(r.user);
  return byChat;
}

/** The files attached to these messages, by stored path. */
export function filesOf({ db }: ChatEnv, rows: MessageRow[]): Promise<Map<string, FileRow>> {
  return filesByPaths(
    db,
    rows.flatMap((r) => r.files),
  );
}

/** Presents messages; `membersByChat` may already hold the members of their chats. */
export async function presentMessages(
  env: ChatEnv,
  rows: MessageRow[],
  membersByChat?: Map<string, ChatPerson[]>,
): Promise<Message[]> {
  if (rows.length === 0) return [];
  const chatIds = [...new Set(rows.map((r) => r.chatId))];
  const members =
    membersByChat && chatIds.every((id) => membersByChat.has(id)) ? membersByChat : await membersOf(env, chatIds);
  const usersById = new Map<string, ChatPerson>();
  for (const list of members.values()) for (const u of list) usersById.set(u.id, u);
  const missing = [...new Set(rows.map((r) => r.senderId))].filter((id) => !usersById.has(id));
  if (missing.length)
    for (const u of await env.db.select(person).from(chatPeople).where(inArray(chatPeople.id, missing))) usersById.set(u.id, u);
  const fileRows = await filesOf(env, rows);
  return rows.map((row) =>
    presentMessage(row, {
      users: usersById,
      memberIds: (members.get(row.chatId) ?? []).map((u) => u.id),
      files: fileRows,
    }),
  );
}
