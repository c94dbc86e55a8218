import { and, eq } from 'drizzle-orm';
import { chatMembers, chats } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import type { ChatEnv } from './context.ts';
import { chatPolicy } from './policy.ts';
import type { ChatRow } from './presenter.ts';

// A chat looked up for the person acting, and let through only if chatPolicy says they take part in it.

/** The chat, if `user` may take part in it (chatPolicy). */
export async function chatToTakePart({ db }: ChatEnv, user: UserRow, chatId: string): Promise<ChatRow> {
  const [row] = await db
    .select({ chat: chats, member: chatMembers.userId })
    .from(chats)
    .leftJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, user.id)))
    .where(eq(chats.id, chatId))
    .limit(1);
  return chatPolicy.authorize(user, 'takePart', row).chat;
}

/** As chatToTakePart(), with the ids of the chat's members in the order they joined (one prepared statement). */
export async function chatToTakePartWithMembers(
  env: ChatEnv,
  user: UserRow,
  chatId: string,
): Promise<{ chat: ChatRow; memberIds: string[] }> {
  const [row] = await env.statements.access.execute({ userId: user.id, chatId });
  const { chat, memberIds } = chatPolicy.authorize(user, 'takePart', row);
  return { chat, memberIds: memberIds ?? [] };
}
