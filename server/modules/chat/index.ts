// Chats and messages.
export { ChatService } from './service.ts';
export { chatRoutes } from './routes.ts';
export { chatPolicy } from './policy.ts';
