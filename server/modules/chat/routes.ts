import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import {
  chatIdParamsSchema,
  chatListQuerySchema,
  chatSchema,
  CHAT_MESSAGES,
  markSeenSchema,
  messageSchema,
  messagesQuerySchema,
  sendMessageSchema,
  sentMessageSchema,
} from '#contract/chat';
import { ok } from '../../lib/http.ts';
import { requireAdmin, requireUser } from '../../lib/auth.ts';
import type { ChatService } from './service.ts';

// SPEC §7 chat and message calls. Everything needs a signed-in member; a guest gets 401 before the request
// is even looked at, so a 400 tells a guest nothing.

const security = [{ bearer: [] }];
const tags = ['chat'];
const signedIn = { preValidation: async (request: FastifyRequest) => void requireUser(request) };
const id = z.uuid(CHAT_MESSAGES.badId);
const chatList = okSchema(z.array(chatSchema));
const messageList = okSchema(z.array(messageSchema));
const countAnswer = okSchema(z.number().int());

export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  app.get(
    '/api/chat/my',
    { ...signedIn, schema: { tags, security, summary: 'Direct chats, the latest first', querystring: chatListQuerySchema, response: { 200: chatList } } },
    async (request) => {
      const { result, total } = await chat.listChats(requireUser(request), 'direct', request.query);
      return ok(result, total);
    },
  );

  app.get(
    '/api/chat/my_by_order',
    { ...signedIn, schema: { tags, security, summary: 'Order chats, the latest first', querystring: chatListQuerySchema, response: { 200: chatList } } },
    async (request) => {
      const { result, total } = await chat.listChats(requireUser(request), 'order', request.query);
      return ok(result, total);
    },
  );

  app.delete(
    '/api/chat/:id',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'Delete a direct chat for yourself (the other member keeps it)',
        params: chatIdParamsSchema,
        response: { 200: okSchema(z.object({ _id: z.string() })) },
      },
    },
    async (request) => {
      await chat.deleteChat(requireUser(request), request.params.id);
      return ok({ _id: request.params.id });
    },
  );

  app.get(
    '/api/messages/chat/:chat_id',
    {
      ...signedIn,
      schema: { tags, security, summary: 'Messages of a chat, newest first', params: z.object({ chat_id: id }), querystring: messagesQuerySchema, response: { 200: messageList } },
    },
    async (request) => {
      const { result, total } = await chat.messages(requireUser(request), request.params.chat_id, request.query);
      return ok(result, total);
    },
  );

  app.post(
    '/api/messages/',
    { ...signedIn, schema: { tags, security, summary: 'Send a message', body: sendMessageSchema, response: { 200: okSchema(sentMessageSchema) } } },
    async (request) => ok(await chat.send(requireUser(request), request.body)),
  );

  app.get(
    '/api/messages/last_message/:chatId',
    { ...signedIn, schema: { tags, security, params: z.object({ chatId: id }), response: { 200: okSchema(messageSchema.nullable()) } } },
    async (request) => ok(await chat.lastMessage(requireUser(request), request.params.chatId)),
  );

  app.get(
    '/api/messages/unseen/count',
    { ...signedIn, schema: { tags, security, summary: 'Unseen messages in all chats', response: { 200: countAnswer } } },
    async (request) => ok(await chat.unseenTotal(requireUser(request).id)),
  );

  app.get(
    '/api/messages/:chatId/unseen/count',
    { ...signedIn, schema: { tags, security, summary: 'Unseen messages in a chat', params: z.object({ chatId: id }), response: { 200: countAnswer } } },
    async (request) => ok(await chat.unseenInChat(requireUser(request), request.params.chatId)),
  );

  app.put(
    '/api/messages/:id',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'Mark a message and the earlier ones as seen',
        params: z.object({ id }),
        body: markSeenSchema,
        response: { 200: okSchema(messageSchema) },
      },
    },
    async (request) => ok(await chat.markSeen(requireUser(request), request.params.id)),
  );

  app.get(
    '/api/admin/chats/:id/messages',
    {
      // app.ts guards /api/admin/* already; this also covers the path spelled differently.
      onRequest: async (request: FastifyRequest) => void requireAdmin(request),
      schema: {
        tags: ['admin'],
        security,
        summary: 'Any chat\'s messages, newest first (admins)',
        params: chatIdParamsSchema,
        querystring: messagesQuerySchema,
        response: { 200: messageList },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { result, total } = await chat.adminMessages(request.params.id, request.query);
      return ok(result, total);
    },
  );
};
