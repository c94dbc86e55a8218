import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { TxContext } from '../../platform/tx.ts';
import { chatMembers, chats } from './schema.ts';
import type { ChatRow } from './presenter.ts';

// What the disputes module reads and changes of chats (ADR 034), so that it never names the chat tables: a dispute's
// chat, found by its dispute (an order's chat is order-chats.ts'), the chats in full for ChatService.chatsFor, and an
// admin joining a dispute's chat in the dispute command's transaction. Messages still go through ChatService.

type Reader = Db | TxContext['tx'];

/** The id of the dispute `disputeId`'s chat (a column of the caller's query), as a subquery; null when none. */
export const disputeChatIdOf = (disputeId: SQLWrapper) =>
  sql<string | null>`(select ${chats.id} from ${chats} where ${chats.disputeId} = ${disputeId} and ${chats.kind} = 'dispute' limit 1)`;

/** The chat of the dispute `disputeId`, in full; undefined when it has none. */
export async function disputeChatRow(db: Reader, disputeId: string): Promise<ChatRow | undefined> {
  const [chat] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.disputeId, disputeId), eq(chats.kind, 'dispute')))
    .limit(1);
  return chat;
}

/** These chats, in full (what ChatService.chatsFor presents). */
export function chatRowsByIds(db: Reader, ids: string[]): Promise<ChatRow[]> {
  return db.select().from(chats).where(inArray(chats.id, ids));
}

/** `userId` joins the chat (an admin taking a dispute); answers whether they were not a member before. */
export async function addChatMember(tx: TxContext['tx'], chatId: string, userId: string): Promise<boolean> {
  const added = await tx.insert(chatMembers).values({ chatId, userId }).onConflictDoNothing().returning({ userId: chatMembers.userId });
  return added.length > 0;
}
