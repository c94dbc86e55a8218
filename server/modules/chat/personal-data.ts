import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { messages } from './schema.ts';

/**
 * The messages the person wrote (never those they received, nor the system's lines about their actions), for their
 * personal-data export (ADR 052).
 */
export function messagesSentBy(db: Db, userId: string) {
  return db
    .select({ id: messages.id, chatId: messages.chatId, text: messages.message, files: messages.files, kind: messages.kind, createdAt: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.senderId, userId), ne(messages.kind, 'system')))
    .orderBy(messages.createdAt);
}

/** A deleted account's messages lose their text and files (ADR 052); the chat keeps its order of messages. */
export async function eraseMessagesOf(tx: Tx, userId: string) {
  await tx
    .update(messages)
    .set({ message: '', files: [] })
    .where(and(eq(messages.senderId, userId), ne(messages.kind, 'system')));
}
