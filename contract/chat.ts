import { z } from 'zod';
import { MESSAGE_PAGE_SIZE } from './constants.ts';
import { fileInfoSchema } from './files.ts';
import {
  CHAT_KINDS,
  CHAT_LIST_DEFAULT_LIMIT,
  CHAT_LIST_MAX_LIMIT,
  CHAT_MESSAGES,
  MAX_MESSAGE_FILES,
  MAX_MESSAGE_LENGTH,
  MESSAGES_MAX_LIMIT,
} from './chat-constants.ts';

// Chats and messages (SPEC §3, §4, §7): request bodies, queries, answers and the socket events, shared by the
// server and the web app. Documents carry `_id`; dates are ISO strings.
//
// Which list shows which chat: GET /api/chat/my lists direct chats (kind "direct": conversations between two
// people, optionally about a service), GET /api/chat/my_by_order lists order chats (kind "order", the order's
// workspace). Dispute chats (kind "dispute", both parties and an admin) are listed by the disputes API with their
// dispute (SPEC: a dispute has a chat and unseen_messages); the message calls below work on them all.

export * from './chat-constants.ts';

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export const chatMemberSchema = z.object({
  _id: z.string(),
  active_role: z.string(),
  online_status: z.boolean(),
  name: z.string(),
  surname: z.string(),
  avatar: z.string().nullable(),
  user_name: z.string(),
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

export const messageFileSchema = fileInfoSchema;
export type MessageFile = z.infer<typeof messageFileSchema>;

export const messageSenderSchema = z.object({
  _id: z.string(),
  name: z.string(),
  surname: z.string(),
  avatar: z.string().nullable(),
});

export const messageSchema = z.object({
  _id: z.string(),
  chat_id: z.string(),
  sender: messageSenderSchema,
  message: z.string(),
  files: z.array(messageFileSchema),
  /** Seen by a recipient (PUT /api/messages/{id} or an update_message event). */
  seen: z.boolean(),
  service_id: z.string().nullable(),
  /** The other member of a two-person chat; null in chats of more people (disputes). */
  recipient: z.string().nullable(),
  /** Contacts were masked in this message. */
  masked: z.boolean(),
  /** text: a member wrote it; system: an order's state change; delivery: a seller's delivery of an order. */
  kind: z.enum(['text', 'system', 'delivery']),
  created_at: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

/** The order of an order chat: its id here; the orders feature may add more (status, title, …). */
export const chatOrderSchema = z.looseObject({ _id: z.string() });

export const chatSchema = z.object({
  _id: z.string(),
  kind: z.enum(CHAT_KINDS),
  members: z.array(chatMemberSchema),
  /** Messages from others this member has not seen yet (deleted history excluded). */
  unseen_messages: z.number().int(),
  last_message: messageSchema.nullable(),
  service_id: z.string().nullable(),
  /** SPEC: present only on order chats. */
  order: chatOrderSchema.optional(),
  last_message_at: z.string(),
});
export type Chat = z.infer<typeof chatSchema>;

/** The answer to POST /api/messages/: the stored message, plus a notice when contacts were masked. */
export const sentMessageSchema = messageSchema.extend({ notice: z.string().optional() });
export type SentMessage = z.infer<typeof sentMessageSchema>;

/** The answer to DELETE /api/chat/{id}: the chat deleted for this member. */
export const deletedChatSchema = z.object({ _id: z.string() });

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const id = z.uuid(CHAT_MESSAGES.badId);
/** An optional id the client may also send as null or "" (its forms keep empty fields). */
const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), id.optional());

export const chatIdParamsSchema = z.object({ id });
/** GET /api/messages/chat/{chat_id}. */
export const chatMessagesParamsSchema = z.object({ chat_id: id });
/** A chat's last message and its unseen count: /api/messages/…/{chatId}…. */
export const chatKeyParamsSchema = z.object({ chatId: id });
/** PUT /api/messages/{id}. */
export const messageIdParamsSchema = z.object({ id });

export const chatListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(CHAT_LIST_MAX_LIMIT).default(CHAT_LIST_DEFAULT_LIMIT),
});
export type ChatListQuery = z.infer<typeof chatListQuerySchema>;

/** Newest first; the client also sends chat_id in the query (SPEC §7), which the path already gives. */
export const messagesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(MESSAGES_MAX_LIMIT).default(MESSAGE_PAGE_SIZE),
  chat_id: z.string().max(100).optional(),
});
export type MessagesQuery = z.infer<typeof messagesQuerySchema>;

export const messageFileUrlSchema = z
  .string({ error: CHAT_MESSAGES.badFile })
  .regex(/^\/uploads\/[0-9a-f-]{36}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/, CHAT_MESSAGES.badFile);

/**
 * POST /api/messages/. Without chat_id the message opens (or reuses) the direct chat with `recipient`;
 * service_id says which service the question is about. Text is plain: the client renders it as text.
 */
export const sendMessageSchema = z.object({
  message: z
    .string({ error: 'Сообщение должно быть текстом' })
    .max(MAX_MESSAGE_LENGTH, CHAT_MESSAGES.tooLong)
    .nullish()
    .transform((v) => v ?? ''),
  chat_id: optionalId,
  service_id: optionalId,
  recipient: optionalId,
  files: z
    .array(messageFileUrlSchema, { error: CHAT_MESSAGES.badFile })
    .max(MAX_MESSAGE_FILES, CHAT_MESSAGES.tooManyFiles)
    .nullish()
    .transform((v) => v ?? []),
});
export type SendMessageInput = z.input<typeof sendMessageSchema>;
export type SendMessage = z.output<typeof sendMessageSchema>;

/** PUT /api/messages/{id}: the only change is "seen". */
export const markSeenSchema = z.object({ seen: z.literal(true, { error: CHAT_MESSAGES.seenOnly }) });

// ---------------------------------------------------------------------------------------------------------
// Socket events (server → client). Each goes only to the sockets of the people it concerns.
// ---------------------------------------------------------------------------------------------------------


/** To every member: the chat as that member sees it (their own unseen count) and the new message. */
export const newMessageEventSchema = z.object({ chat: chatSchema, newMessage: messageSchema });
export type NewMessageEvent = z.infer<typeof newMessageEventSchema>;

/** To the deleting member's sockets only. */
export const deleteChatEventSchema = z.object({ id: z.string() });
export type DeleteChatEvent = z.infer<typeof deleteChatEventSchema>;

/** To the people who share a chat with the user, when their first socket connects or their last one leaves. */
export const updateUserEventSchema = z.object({ id: z.string(), online_status: z.boolean() });
export type UpdateUserEvent = z.infer<typeof updateUserEventSchema>;

/** To the sender's sockets: their message `id` was seen. */
export const updateMessageEventSchema = z.object({ id: z.string() });
export type UpdateMessageEvent = z.infer<typeof updateMessageEventSchema>;

/**
 * get_counters, to one person at a time, keyed by that person's id (a payload never carries anyone else's counts):
 * totalUnseen[userId] — unseen messages from others across all their chats that they have not deleted (the same
 * number as GET /api/messages/unseen/count); chatTotalUnseen[userId] — unseen in chat `chat_id` (as
 * GET /api/messages/{chatId}/unseen/count). Sent to the recipients of a new message, to whoever marks messages
 * seen, and to whoever deletes a chat.
 */
export const countersEventSchema = z.object({
  totalUnseen: z.record(z.string(), z.number().int()),
  chatTotalUnseen: z.record(z.string(), z.number().int()),
  chat_id: z.string(),
  /** When chat_id is a dispute's chat: the dispute, so chatTotalUnseen is its unseen count (SPEC §4). */
  dispute_id: z.string().optional(),
  /** With dispute_id: the person's unseen messages across their disputes' chats (a part of totalUnseen). */
  disputesUnseen: z.record(z.string(), z.number().int()).optional(),
});
export type CountersEvent = z.infer<typeof countersEventSchema>;
