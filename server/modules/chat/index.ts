// Chats and messages.
export { ChatService } from './service.ts';
export { CHAT_ANNOUNCE_JOB, type ChatDeps, type OrderView } from './context.ts';
export { chatRoutes } from './routes.ts';
export { chatPolicy } from './policy.ts';
export { chatFileUses } from './file-uses.ts';
export { chatModule } from './module.ts';
export { unseenForLetter, type UnseenForLetter } from './queries/unseen-for-letter.ts';
export { chatMemberRefs, chatRefs } from './read-model.ts';
export { addChatMember, chatRowsByIds, disputeChatIdOf, disputeChatRow } from './dispute-chats.ts';
export { openOrderChat, orderChatId, orderChatIdOf, type OrderChatParties } from './order-chats.ts';
export { messagesSentBy, eraseMessagesOf } from './personal-data.ts';
