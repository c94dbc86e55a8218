import type { Chat, ChatMember, CountersEvent, Message, NewMessageEvent, UpdateUserEvent } from '#contract/chat';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';

// The chat store's state and its changes (SPEC §4 "Messages and chats", "Socket"), as pure functions of the state:
// what each socket event, each page and each sent message make of it. store.ts applies them; tests read them.

export type ChatTab = 'chats' | 'orders';

export interface ChatState {
  me: string | null;
  /** Unseen messages from others in all chats (the header badge). */
  total: number;
  /** Of them, the ones in the person's disputes' chats (listed under «Споры», not among the messages). */
  disputes: number;
  lists: Record<ChatTab, Chat[]>;
  totals: Record<ChatTab, number>;
  loaded: Record<ChatTab, boolean>;
  listError: Record<ChatTab, boolean>;
  /** The open chat, and its messages newest first (as the API pages them). */
  activeId: string | null;
  messages: Message[];
  page: number;
  hasMore: boolean;
  loadingMessages: boolean;
  messagesError: boolean;
  /** Online status by user id, updated by update_user (covers the open chat header and the deep link). */
  online: Record<string, boolean>;
}

export const initialChatState: ChatState = {
  me: null,
  total: 0,
  disputes: 0,
  lists: { chats: [], orders: [] },
  totals: { chats: 0, orders: 0 },
  loaded: { chats: false, orders: false },
  listError: { chats: false, orders: false },
  activeId: null,
  messages: [],
  page: 0,
  hasMore: false,
  loadingMessages: false,
  messagesError: false,
  online: {},
};

/** SPEC §4: the member who is not me and is not acting as an admin. */
export function respondentOf(chat: Chat, me: string | null): ChatMember | undefined {
  return chat.members.find((m) => m._id !== me && m.active_role !== 'admin');
}

export const tabOf = (chat: Chat): ChatTab => (chat.kind === 'order' ? 'orders' : 'chats');

const withoutChat = (list: Chat[], id: string) => list.filter((c) => c._id !== id);
const mapChats = (s: ChatState, fn: (c: Chat) => Chat): ChatState['lists'] => ({ chats: s.lists.chats.map(fn), orders: s.lists.orders.map(fn) });

export function findChat(s: ChatState, id: string | null): Chat | undefined {
  if (!id) return undefined;
  return s.lists.chats.find((c) => c._id === id) ?? s.lists.orders.find((c) => c._id === id);
}

/** The members' online statuses as the chats tell them, over those known. */
function withOnline(online: ChatState['online'], chats: readonly Chat[]): ChatState['online'] {
  const next = { ...online };
  for (const c of chats) for (const m of c.members) next[m._id] = m.online_status;
  return next;
}

/**
 * new_message: the chat goes to the top of its tab (counted once when it is new there), its members' statuses are
 * taken, and the open chat shows the message once. A dispute's chat lives on /profile/disputes: nothing changes.
 */
export function withNewMessage(s: ChatState, { chat, newMessage }: NewMessageEvent): Partial<ChatState> {
  if (chat.kind === 'dispute') return {};
  const tab = tabOf(chat);
  const updated: Chat = { ...chat, last_message: newMessage };
  const wasListed = s.lists[tab].some((c) => c._id === chat._id);
  const lists = { ...s.lists, [tab]: [updated, ...withoutChat(s.lists[tab], chat._id)] };
  const totals = wasListed ? s.totals : { ...s.totals, [tab]: s.totals[tab] + 1 };
  const isOpen = s.activeId === chat._id;
  const messages = isOpen && !s.messages.some((m) => m._id === newMessage._id) ? [newMessage, ...s.messages] : s.messages;
  return { lists, totals, online: withOnline(s.online, [chat]), messages };
}

/** delete_chat (or this person's own deletion): the chat leaves its list and its count; closed if it was open. */
export function withDeletedChat(s: ChatState, id: string): Partial<ChatState> {
  return {
    lists: { chats: withoutChat(s.lists.chats, id), orders: withoutChat(s.lists.orders, id) },
    totals: {
      chats: s.totals.chats - (s.lists.chats.some((c) => c._id === id) ? 1 : 0),
      orders: s.totals.orders - (s.lists.orders.some((c) => c._id === id) ? 1 : 0),
    },
    ...(s.activeId === id ? { activeId: null, messages: [], page: 0, hasMore: false } : {}),
  };
}

/** update_user: a person came online or left, in the statuses and in every chat they are a member of. */
export function withUserStatus(s: ChatState, { id, online_status }: UpdateUserEvent): Partial<ChatState> {
  return {
    online: { ...s.online, [id]: online_status },
    lists: mapChats(s, (c) =>
      c.members.some((m) => m._id === id) ? { ...c, members: c.members.map((m) => (m._id === id ? { ...m, online_status } : m)) } : c,
    ),
  };
}

/** update_message: this person's message was seen, in the open chat and as a chat's last message. */
export function withMessageSeen(s: ChatState, id: string): Partial<ChatState> {
  return {
    messages: s.messages.some((m) => m._id === id) ? s.messages.map((m) => (m._id === id ? { ...m, seen: true } : m)) : s.messages,
    lists: mapChats(s, (c) => (c.last_message?._id === id ? { ...c, last_message: { ...c.last_message, seen: true } } : c)),
  };
}

/** get_counters: the counts this person's entry carries (an absent one leaves its count as it is). */
export function withCounters(s: ChatState, payload: CountersEvent): Partial<ChatState> {
  const me = s.me;
  if (!me) return {};
  const total = payload.totalUnseen[me];
  const inChat = payload.chatTotalUnseen[me];
  const disputes = payload.disputesUnseen?.[me];
  return {
    ...(typeof total === 'number' ? { total } : {}),
    ...(typeof disputes === 'number' ? { disputes } : {}),
    ...(typeof inChat === 'number' ? { lists: mapChats(s, (c) => (c._id === payload.chat_id ? { ...c, unseen_messages: inChat } : c)) } : {}),
  };
}

/** The list page to ask for: the first, or the one after those loaded (pages of 20). */
export const listPage = (loaded: number, more: boolean) => (more ? Math.floor(loaded / 20) + 1 : 1);

/** A page of a tab's chats: the first replaces the list, a next one adds the chats not listed yet. */
export function withListPage(s: ChatState, tab: ChatTab, page: { result: Chat[]; total?: number }, more: boolean): Partial<ChatState> {
  const known = more ? s.lists[tab] : [];
  const fresh = page.result.filter((c) => !known.some((k) => k._id === c._id));
  return {
    lists: { ...s.lists, [tab]: [...known, ...fresh] },
    totals: { ...s.totals, [tab]: page.total ?? known.length + fresh.length },
    loaded: { ...s.loaded, [tab]: true },
    listError: { ...s.listError, [tab]: false },
    online: withOnline(s.online, page.result),
  };
}

/** An older page of the open chat's messages: those not shown yet go below; more remain while pages are full. */
export function withOlderMessages(s: ChatState, page: number, answer: { result: Message[]; total?: number }): Partial<ChatState> {
  const older = answer.result.filter((m) => !s.messages.some((k) => k._id === m._id));
  const messages = [...s.messages, ...older];
  return {
    messages,
    page,
    loadingMessages: false,
    hasMore: answer.result.length === MESSAGE_PAGE_SIZE && (answer.total === undefined || messages.length < answer.total),
  };
}

/**
 * The open chat's newest page read again after the socket reconnected (issue 29): messages sent while it was away
 * (events are not replayed, ADR 013) join the ones shown, newest first, each once.
 */
export function withCaughtUp(s: ChatState, chatId: string, newest: readonly Message[]): Partial<ChatState> {
  if (s.activeId !== chatId) return {};
  const missed = newest.filter((m) => !s.messages.some((k) => k._id === m._id));
  if (!missed.length) return {};
  return { messages: [...missed, ...s.messages].sort((a, b) => b.created_at.localeCompare(a.created_at)) };
}

/** A message this person just sent: shown once in its open chat, and as its chat's last message. */
export function withSent(s: ChatState, message: Message): Partial<ChatState> {
  return {
    messages: s.activeId === message.chat_id && !s.messages.some((m) => m._id === message._id) ? [message, ...s.messages] : s.messages,
    lists: mapChats(s, (c) => (c._id === message.chat_id ? { ...c, last_message: message } : c)),
  };
}

/** Every message from others in the open chat seen (marking one marks the earlier ones too). */
export const withOthersSeen = (s: ChatState): Partial<ChatState> => ({
  messages: s.messages.map((m) => (m.sender._id !== s.me && !m.seen ? { ...m, seen: true } : m)),
});

/** The newest message from others not seen yet, the one to mark on opening a chat. */
export const newestUnseen = (s: ChatState): Message | undefined => s.messages.find((m) => m.sender._id !== s.me && !m.seen);

/** Unseen messages: in every chat, in the chats of the messages page only, or in disputes' chats only. */
export type UnseenScope = 'all' | 'messages' | 'disputes';

export const unseenIn = (s: Pick<ChatState, 'total' | 'disputes'>, scope: UnseenScope) =>
  scope === 'all' ? s.total : scope === 'disputes' ? s.disputes : Math.max(0, s.total - s.disputes);
