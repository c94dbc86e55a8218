// Chats and messages: the chat store fed by the socket, the list, the message log, the composer, the badges.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ChatList, OnlineDot, fullName } from './chat-list.tsx';
export { Composer, type Target } from './composer.tsx';
export { MessageLog } from './message-log.tsx';
export { chatStore, findChat, respondentOf, type ChatTab, useChatState, useUnseenTotal } from './store.ts';
export { HeaderMessagesLink, UnseenBadge, unseenText, useChatLive } from './unseen-badge.tsx';
