import { and, desc, eq } from 'drizzle-orm';
import { chatMembers, chats, messages } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { CHAT_MESSAGES, type Message, type MessagesQuery } from '#contract/chat';
import { chatToTakePart } from '../access.ts';
import type { ChatEnv, Paged } from '../context.ts';
import { count, memberJoin, visible } from '../query-parts.ts';
import { presentMessages } from './present-messages.ts';

// The messages of a chat: a member's pages, its newest one, and the admin area's pages.

/** GET /api/messages/chat/{id}: a page of the messages this member sees, newest first. */
export async function messagesPage(
  env: ChatEnv,
  user: UserRow,
  chatId: string,
  query: MessagesQuery,
): Promise<Paged<Message>> {
  await chatToTakePart(env, user, chatId);
  const where = and(eq(messages.chatId, chatId), visible);
  const rows = await env.db
    .select({ message: messages })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(user.id))
    .where(where)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [{ total } = { total: 0 }] = await env.db
    .select({ total: count })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(user.id))
    .where(where);
  return {
    result: await presentMessages(
      env,
      rows.map((r) => r.message),
    ),
    total,
  };
}

/** GET /api/admin/chats/{id}/messages: every message of any chat, newest first (the admin area; its guard admits admins). */
export async function adminMessages(env: ChatEnv, chatId: string, query: MessagesQuery): Promise<Paged<Message>> {
  const [chat] = await env.db.select({ id: chats.id }).from(chats).where(eq(chats.id, chatId)).limit(1);
  if (!chat) throw notFound(CHAT_MESSAGES.chatNotFound);
  const rows = await env.db
    .select()
    .from(messages)
    .where(eq(messages.chatId, chatId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [{ total } = { total: 0 }] = await env.db
    .select({ total: count })
    .from(messages)
    .where(eq(messages.chatId, chatId));
  return { result: await presentMessages(env, rows), total };
}

/** GET /api/messages/last_message/{chatId}: the newest message this member sees, or null. */
export async function lastMessage(env: ChatEnv, user: UserRow, chatId: string): Promise<Message | null> {
  await chatToTakePart(env, user, chatId);
  const [row] = await env.db
    .select({ message: messages })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(user.id))
    .where(and(eq(messages.chatId, chatId), visible))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row ? (await presentMessages(env, [row.message]))[0]! : null;
}
