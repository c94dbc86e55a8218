// Chats and messages.
export { ChatService, CHAT_ANNOUNCE_JOB, type OrderView } from './service.ts';
export { chatRoutes } from './routes.ts';
export { chatPolicy } from './policy.ts';
