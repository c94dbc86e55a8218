import { and, eq, sql } from 'drizzle-orm';
import { chatMembers } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { badRequest } from '../../../lib/http.ts';
import { CHAT_MESSAGES, SOCKET_EVENTS } from '#contract/chat';
import { chatToTakePart } from '../access.ts';
import { sendCounters } from '../announce.ts';
import type { ChatEnv } from '../context.ts';

/**
 * DELETE /api/chat/{id}: hides a direct chat and its history so far for this member only (docs/decisions/003);
 * a new message brings it back. Order and dispute chats keep the record of a deal and cannot be deleted.
 */
export async function deleteChat(env: ChatEnv, user: UserRow, chatId: string): Promise<void> {
  const chat = await chatToTakePart(env, user, chatId);
  if (chat.kind !== 'direct') throw badRequest(CHAT_MESSAGES.cannotDelete);
  await env.deps.realtime.afterCommit(async (outbox) => {
    await env.db
      .update(chatMembers)
      .set({ deletedAt: sql`now()`, clearedAt: sql`now()` })
      .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, user.id)));
    outbox.emit([user.id], SOCKET_EVENTS.deleteChat, { id: chatId });
  });
  await sendCounters(env, user.id, chatId);
}
