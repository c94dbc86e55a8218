import { eq } from 'drizzle-orm';
import { serviceRefs } from '../../services/index.ts';
import type { UserRow } from '../../users/index.ts';
import { badRequest, HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import {
  CHAT_MESSAGES,
  MESSAGES_PER_WINDOW,
  MESSAGES_WINDOW_MS,
  type SendMessage,
  type SentMessage,
} from '#contract/chat';
import { chatToTakePartWithMembers } from '../access.ts';
import { ownFiles } from '../attachments.ts';
import { cleanText } from '../clean-text.ts';
import { maskContacts } from '../contacts.ts';
import type { ChatEnv } from '../context.ts';
import { recipientPolicy, writesContactsUnmasked } from '../policy.ts';
import { presentMessage, type ChatRow, type MessageRow } from '../presenter.ts';
import { filesOf } from '../queries/present-messages.ts';
import { directKey } from '../query-parts.ts';
import { insertMessage } from '../statements.ts';
import { openDirect } from './open-chat.ts';

/** The service a message is about (the services module's read model). */
const about = serviceRefs('service');

/** The columns of a message as sendMessage stores it into `chat`. */
type MessageValues = (chat: ChatRow) => {
  chatId: string;
  senderId: string;
  message: string;
  files: string[];
  serviceId: string | null;
  masked: boolean;
  kind: 'text';
};

interface Stored {
  chatId: string;
  row: MessageRow;
  memberIds: string[];
}

/**
 * POST /api/messages/. Into `chat_id`, else into the direct chat with `recipient` (opened on the first message).
 * In direct chats (no order yet) contacts are masked. Stored, the chat moved up and revived for members who had
 * deleted it, in one transaction (one statement when the chat exists); the answer leaves once that has committed,
 * and the members are told after it (fanOut), through the fan-out queue.
 */
export async function sendMessage(env: ChatEnv, user: UserRow, input: SendMessage): Promise<SentMessage> {
  const { deps, db } = env;
  const perWindow = deps.limits?.messagesPerWindow ?? MESSAGES_PER_WINDOW;
  const windowMs = deps.limits?.windowMs ?? MESSAGES_WINDOW_MS;
  const { allowed } = await deps.limiter.hit(`chat:messages:${user.id}`, perWindow, windowMs);
  if (!allowed) throw new HttpError(429, CHAT_MESSAGES.tooMany);

  const text = cleanText(input.message);
  if (!text && input.files.length === 0) throw badRequest(CHAT_MESSAGES.empty, { message: [CHAT_MESSAGES.empty] });
  const attachments = await ownFiles(db, user.id, input.files);
  const serviceId = input.service_id ?? null;
  if (serviceId) {
    const [service] = await db.select({ id: about.id }).from(about).where(eq(about.id, serviceId)).limit(1);
    if (!service) throw badRequest(CHAT_MESSAGES.serviceNotFound, { service_id: [CHAT_MESSAGES.serviceNotFound] });
  }

  const { text: maskedText, masked } = writesContactsUnmasked(user) ? { text, masked: false } : maskContacts(text);
  const values: MessageValues = (chat) => ({
    chatId: chat.id,
    senderId: user.id,
    message: chat.kind === 'direct' ? maskedText : text,
    files: attachments,
    serviceId,
    masked: chat.kind === 'direct' && masked,
    kind: 'text',
  });
  const fields = { senderId: user.id, text, maskedText, masked, files: attachments, serviceId };

  // The usual case in one statement: a chat that exists, which the sender may write to (and, for a recipient,
  // a recipient who is not blocked).
  const [fast] = input.chat_id
    ? await env.statements.sendToChat.execute({ ...fields, chatId: input.chat_id })
    : input.recipient && input.recipient !== user.id
      ? await env.statements.sendDirect.execute({
          ...fields,
          recipient: input.recipient,
          key: directKey(user.id, input.recipient),
        })
      : [];

  // Otherwise the long way, which tells what is wrong, or opens the direct chat of a first message.
  const { chatId, row, memberIds } = fast
    ? (({ memberIds, ...row }) => ({ chatId: row.chatId, row, memberIds: memberIds ?? [] }))(fast)
    : await sendSlowly(env, user, input, values, serviceId);

  // Committed: the answer, and the members' events after it.
  const message = presentMessage(row, {
    users: new Map([[user.id, user]]),
    memberIds,
    files: await filesOf(env, [row]),
  });
  env.fanout.push({ kind: 'message', chatId, row, message });
  return row.masked ? { ...message, notice: CHAT_MESSAGES.contactsMasked } : message;
}

/** sendMessage when the one statement stored nothing: the checks one by one, or a direct chat to open. */
async function sendSlowly(
  env: ChatEnv,
  user: UserRow,
  input: SendMessage,
  values: MessageValues,
  serviceId: string | null,
): Promise<Stored> {
  if (input.chat_id) {
    const { chat, memberIds } = await chatToTakePartWithMembers(env, user, input.chat_id);
    const [row] = await insertMessage(env.db).execute(values(chat));
    return { chatId: chat.id, row: row!, memberIds };
  }
  if (!input.recipient) throw badRequest(CHAT_MESSAGES.noRecipient, { recipient: [CHAT_MESSAGES.noRecipient] });
  if (input.recipient === user.id)
    throw badRequest(CHAT_MESSAGES.notYourself, { recipient: [CHAT_MESSAGES.notYourself] });
  const [direct] = await env.statements.direct.execute({
    recipient: input.recipient,
    key: directKey(user.id, input.recipient),
  });
  const { recipient, chat: existing, memberIds: members } = recipientPolicy.authorize(user, 'write', direct);
  const memberIds = members ?? [];
  if (existing && memberIds.includes(user.id) && memberIds.includes(recipient.id)) {
    const [row] = await insertMessage(env.db).execute(values(existing));
    return { chatId: existing.id, row: row!, memberIds };
  }
  // The first message of the two (or a chat that lost a member): opened, then written to, in one transaction
  // (it queues nothing on the outbox: the members hear of it from sendMessage's fan-out, after the commit).
  return env.withTx(userActor(user), async ({ tx }) => {
    const chat = await openDirect(tx, user.id, recipient.id, serviceId);
    const [row] = await insertMessage(tx).execute(values(chat));
    return { chatId: chat.id, row: row!, memberIds: [user.id, recipient.id] };
  });
}
