import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import {
  chatIdParamsSchema,
  chatKeyParamsSchema,
  chatListQuerySchema,
  chatMessagesParamsSchema,
  chatSchema,
  deletedChatSchema,
  markSeenSchema,
  messageIdParamsSchema,
  messageSchema,
  messagesQuerySchema,
  sendMessageSchema,
  sentMessageSchema,
} from '../chat.ts';

const tags = ['chat'];
const chatList = okSchema(z.array(chatSchema));
const messageList = okSchema(z.array(messageSchema));
const count = okSchema(z.number().int());
/** SPEC's result (unseen in every chat), and how many of them are in the person's disputes' chats. */
const unseenTotal = count.extend({ disputes: z.number().int() });

/** SPEC §7 chat and message calls: every one needs a signed-in member. */
export const chatEndpoints = defineEndpoints({
  'chat.list': { access: 'user', tags, summary: 'Direct chats, the latest first', query: chatListQuerySchema, response: chatList },
  'chat.listByOrder': { access: 'user', tags, summary: 'Order chats, the latest first', query: chatListQuerySchema, response: chatList },
  'chat.remove': {
    access: 'user',
    tags,
    summary: 'Delete a direct chat for yourself (the other member keeps it)',
    params: chatIdParamsSchema,
    response: okSchema(deletedChatSchema),
  },
  'chat.messages': {
    access: 'user',
    tags,
    summary: 'Messages of a chat, newest first',
    params: chatMessagesParamsSchema,
    query: messagesQuerySchema,
    response: messageList,
  },
  'chat.send': { access: 'user', tags, summary: 'Send a message', body: sendMessageSchema, response: okSchema(sentMessageSchema) },
  'chat.lastMessage': { access: 'user', tags, params: chatKeyParamsSchema, response: okSchema(messageSchema.nullable()) },
  'chat.unseenTotal': {
    access: 'user',
    tags,
    summary: "Unseen messages in all chats; `disputes`: how many of them are in disputes' chats (the «Споры» tab)",
    response: unseenTotal,
  },
  'chat.unseenInChat': { access: 'user', tags, summary: 'Unseen messages in a chat', params: chatKeyParamsSchema, response: count },
  'chat.markSeen': {
    access: 'user',
    tags,
    summary: 'Mark a message and the earlier ones as seen',
    params: messageIdParamsSchema,
    body: markSeenSchema,
    response: okSchema(messageSchema),
  },
});
