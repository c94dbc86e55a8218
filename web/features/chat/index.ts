// Chats and messages: the chat store fed by the socket, the list, the message log, the composer, the badges.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ChatList } from './chat-list.tsx';
export { Composer, type Target } from './composer.tsx';
export { MessageLog } from './message-log.tsx';
export { chatStore, useChatState, useUnseenTotal } from './store.ts';
export { findChat, respondentOf, type ChatTab } from './state.ts';
export { HeaderMessagesLink, UnseenBadge, unseenText, useChatLive } from './unseen-badge.tsx';
export { ChatServiceCard } from './service-card.tsx';
export { aboutService, conversationHead, messageTarget, type Pending, pendingFromAddress, tabFromAddress, tabToOpen } from './conversation.ts';
export { ChatHead, ChatTabs } from './conversation-parts.tsx';
