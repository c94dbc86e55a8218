import { defineModule } from '../../platform/module.ts';
import { ChatService } from './service.ts';
import { CHAT_ANNOUNCE_JOB } from './context.ts';
import { chatRoutes } from './routes.ts';
import { chatFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    chat: ChatService;
  }
}

export const chatModule = defineModule({
  name: 'chat',
  create: ({ db, log, services }) => ({
    chat: new ChatService({
      db,
      platform: services.platform,
      realtime: services.realtime,
      limiter: services.limiter,
      log,
      // Order chats show their order card (the orders module, made after this one: looked up when presented).
      describeOrders: (ids) => services.orders.describe(ids),
      // The letter to a recipient who stays offline with the message unseen (ADR 030).
      onSent: (sent) => services.notifications.messagesSent(sent),
    }),
  }),
  routes: (app, { services: { chat }, reads }) => app.register(chatRoutes, { chat, reads }),
  // Messages posted inside other modules' transactions (orders' and disputes' system messages) are announced after
  // their commit, through the outbox.
  subscribe({ services: { platform, chat } }) {
    platform.dispatcher.handle<{ messageId: string }>(CHAT_ANNOUNCE_JOB, ({ messageId }) => chat.announce(messageId));
  },
  fileUses: chatFileUses,
});
