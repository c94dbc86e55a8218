import { and, eq, inArray, isNull } from 'drizzle-orm';
import { chatMembers, chats, messages } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { chatToTakePart } from '../access.ts';
import type { ChatEnv } from '../context.ts';
import { count, memberJoin, unseenBy } from '../query-parts.ts';

// Unseen messages: from others, not seen yet, not hidden by the person's deletion of the chat.

/** Unseen messages of `userId` per chat (all their chats when `chatIds` is not given, deleted ones left out). */
export async function unseenPerChat({ db }: ChatEnv, userId: string, chatIds?: string[]): Promise<Map<string, number>> {
  if (chatIds && chatIds.length === 0) return new Map();
  const rows = await db
    .select({ chatId: messages.chatId, n: count })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(userId))
    .where(and(unseenBy(userId), chatIds ? inArray(messages.chatId, chatIds) : isNull(chatMembers.deletedAt)))
    .groupBy(messages.chatId);
  return new Map(rows.map((r) => [r.chatId, r.n]));
}

/** GET /api/messages/unseen/count: unseen messages from others across the chats this person has not deleted. */
export async function unseenTotal({ db }: ChatEnv, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(userId))
    .where(and(unseenBy(userId), isNull(chatMembers.deletedAt)));
  return row?.n ?? 0;
}

/** Of unseenTotal, the unseen messages in the chats of this person's disputes (they are listed under «Споры»). */
export async function unseenInDisputes({ db }: ChatEnv, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(userId))
    .innerJoin(chats, and(eq(chats.id, messages.chatId), eq(chats.kind, 'dispute')))
    .where(and(unseenBy(userId), isNull(chatMembers.deletedAt)));
  return row?.n ?? 0;
}

/** GET /api/messages/{chatId}/unseen/count. */
export async function unseenInChat(env: ChatEnv, user: UserRow, chatId: string): Promise<number> {
  await chatToTakePart(env, user, chatId);
  return (await unseenPerChat(env, user.id, [chatId])).get(chatId) ?? 0;
}
