import { and, eq, isNotNull } from 'drizzle-orm';
import { chatMembers, chats, messages, type MessageKind } from '../schema.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { cleanText } from '../clean-text.ts';
import { CHAT_ANNOUNCE_JOB } from '../context.ts';
import type { MessageRow } from '../presenter.ts';
import { movedUp } from '../query-parts.ts';

/**
 * A message the platform writes in a chat inside another module's transaction (an order's state change, a
 * delivery), in the name of `senderId` (the member who acted). The chat moves up and comes back for members who
 * had deleted it, as with any message; the members hear of it (new_message, get_counters) once the transaction
 * has committed, through the outbox (CHAT_ANNOUNCE_JOB). Files must be checked by the caller (ownFilesOf). A 'text'
 * message is the member's own words sent through another module's step (a custom offer's change request).
 */
export async function postInTx(
  { tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>,
  input: { chatId: string; senderId: string; kind: MessageKind; message: string; files?: string[] },
): Promise<MessageRow> {
  await tx.update(chats).set({ lastMessageAt: movedUp }).where(eq(chats.id, input.chatId));
  await tx
    .update(chatMembers)
    .set({ deletedAt: null })
    .where(and(eq(chatMembers.chatId, input.chatId), isNotNull(chatMembers.deletedAt)));
  const [row] = await tx
    .insert(messages)
    .values({
      chatId: input.chatId,
      senderId: input.senderId,
      message: cleanText(input.message),
      files: input.files ?? [],
      kind: input.kind,
    })
    .returning();
  outbox.job(CHAT_ANNOUNCE_JOB, { messageId: row!.id });
  return row!;
}
