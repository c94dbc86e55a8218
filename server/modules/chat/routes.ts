import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { ChatService } from './service.ts';

// SPEC §7 chat and message calls. Everything needs a signed-in member; a guest gets 401 before the request
// is even looked at, so a 400 tells a guest nothing.

export const chatRoutes: FastifyPluginAsync<{ chat: ChatService; reads: ReadHandlers }> = async (
  app,
  { chat, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('chat.list', async ({ query, user }) => {
    const { result, total } = await chat.listChats(user, 'direct', query);
    return ok(result, total);
  });

  on('chat.listByOrder', async ({ query, user }) => {
    const { result, total } = await chat.listChats(user, 'order', query);
    return ok(result, total);
  });

  on('chat.remove', async ({ params, user }) => {
    await chat.deleteChat(user, params.id);
    return ok({ _id: params.id });
  });

  on('chat.messages', async ({ params, query, user }) => {
    const { result, total } = await chat.messages(user, params.chat_id, query);
    return ok(result, total);
  });

  on('chat.send', async ({ body, user }) => ok(await chat.send(user, body)));

  on('chat.lastMessage', async ({ params, user }) => ok(await chat.lastMessage(user, params.chatId)));

  on('chat.unseenTotal', async ({ user }) => {
    const [total, disputes] = await Promise.all([chat.unseenTotal(user.id), chat.unseenInDisputes(user.id)]);
    return { ...ok(total), disputes };
  });

  on('chat.unseenInChat', async ({ params, user }) => ok(await chat.unseenInChat(user, params.chatId)));

  on('chat.markSeen', async ({ params, user }) => ok(await chat.markSeen(user, params.id)));

  on('admin.chats.messages', async ({ params, query }) => {
    const { result, total } = await chat.adminMessages(params.id, query);
    return ok(result, total);
  });
};
