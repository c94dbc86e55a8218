import type { MessageKind } from '../schema.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { cleanText } from '../clean-text.ts';
import { CHAT_ANNOUNCE_JOB } from '../context.ts';
import type { MessageRow } from '../presenter.ts';
import { insertMessage } from '../statements.ts';

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
  // One statement: the chat moved up and revived with the message (the send path's own).
  const [row] = await insertMessage(tx).execute({
    chatId: input.chatId,
    senderId: input.senderId,
    message: cleanText(input.message),
    files: input.files ?? [],
    serviceId: null,
    masked: false,
    kind: input.kind,
  });
  outbox.job(CHAT_ANNOUNCE_JOB, { messageId: row!.id });
  return row!;
}
