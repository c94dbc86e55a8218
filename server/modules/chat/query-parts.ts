import { and, eq, gt, isNull, ne, or, sql, type AnyColumn } from 'drizzle-orm';
import { chatMembers, chats, messages } from './schema.ts';
import { people } from '../users/index.ts';

// SQL pieces the chat's queries and statements share: what a member sees, what is unseen, who a person is.

/** Messages a member sees: those after the moment they last deleted the chat. Needs chat_members joined. */
export const visible = or(isNull(chatMembers.clearedAt), gt(messages.createdAt, chatMembers.clearedAt))!;

/** The membership of `userId` joined to messages of the same chat. */
export const memberJoin = (userId: string) =>
  and(eq(chatMembers.chatId, messages.chatId), eq(chatMembers.userId, userId))!;

/** Not seen yet. A literal, not a parameter: a prepared statement's generic plan could not use messages_unseen_idx. */
export const notSeen = sql`${messages.seen} = false`;

/** Unseen by `userId` (an id, or the member column of a joined chat_members): from others, not seen, not hidden. */
export const unseenBy = (userId: string | AnyColumn) => and(ne(messages.senderId, userId), notSeen, visible)!;

/** A direct chat; a literal for the same reason (chats_direct_key_idx is partial on it). */
export const isDirect = sql`${chats.kind} = 'direct'`;

export const count = sql<number>`count(*)::int`;

/** The key of the one direct chat of two people, whichever of them writes first. */
export const directKey = (a: string, b: string) => [a, b].sort().join(':');

/** The ids of a chat's members in the order they joined (a subquery; null when it has none). */
export const memberIdsOf = (chatId: AnyColumn) =>
  sql<string[] | null>`(select json_agg(${chatMembers.userId} order by ${chatMembers.joinedAt}, ${chatMembers.userId}) from ${chatMembers} where ${chatMembers.chatId} = ${chatId})`;

/** People as chats and messages join them (the users module's read model), for the columns of `person`. */
export const chatPeople = people('person');

/** The columns of a person that chats and messages show, from a `chatPeople` join. */
export const person = {
  id: chatPeople.id,
  activeRole: chatPeople.activeRole,
  name: chatPeople.name,
  surname: chatPeople.surname,
  avatar: chatPeople.avatar,
  userName: chatPeople.userName,
};

/** Moves a chat up: now() is the message's created_at, at full precision; never backwards when transactions overlap. */
export const movedUp = sql`greatest(${chats.lastMessageAt}, now())`;
