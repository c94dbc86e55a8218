import { and, asc, count, eq, gt, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatMembers, chats, messages, type ChatKind } from '../schema.ts';
import { people } from '../../users/index.ts';

const sender = people('sender');

/** A member's unseen messages in one chat, as the letter about them tells it. */
export interface UnseenForLetter {
  kind: ChatKind;
  disputeId: string | null;
  count: number;
  /** The first `quoted` unseen messages, oldest first, with what the letter says of their senders. */
  first: { message: string; name: string; surname: string; userName: string; roles: string[] }[];
}

/**
 * For the notifications module's letter about unread messages (ADR 030): what `userId` has not seen in chat
 * `chatId` (from others, after their deletion of the chat), or null when they are not a member of it.
 */
export async function unseenForLetter(
  db: Db,
  chatId: string,
  userId: string,
  quoted: number,
): Promise<UnseenForLetter | null> {
  const [membership] = await db
    .select({ clearedAt: chatMembers.clearedAt, kind: chats.kind, disputeId: chats.disputeId })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, userId)))
    .limit(1);
  if (!membership) return null;
  const unseen = and(
    eq(messages.chatId, chatId),
    ne(messages.senderId, userId),
    eq(messages.seen, false),
    membership.clearedAt ? gt(messages.createdAt, membership.clearedAt) : undefined,
  );
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(messages).where(unseen);
  const found = { kind: membership.kind, disputeId: membership.disputeId, count: n };
  if (n === 0) return { ...found, first: [] };
  const first = await db
    .select({
      message: messages.message,
      name: sender.name,
      surname: sender.surname,
      userName: sender.userName,
      roles: sender.roles,
    })
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .where(unseen)
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(quoted);
  return { ...found, first };
}
