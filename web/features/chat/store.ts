import type { ApiOk } from '#contract/api';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';
import { SOCKET_EVENTS } from '#contract/chat-constants';
import type {
  Chat,
  ChatMember,
  CountersEvent,
  DeleteChatEvent,
  Message,
  NewMessageEvent,
  UpdateMessageEvent,
  UpdateUserEvent,
} from '#contract/chat';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { createStore, useStore } from '../../lib/store.ts';

// One small external store for everything chat (SPEC §4 "Messages and chats", "Socket"): the header badge,
// the profile menu and /profile/messages read the same state, and the socket events update it wherever the
// person is in the app.

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

const initial: ChatState = {
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

const store = createStore<ChatState>(initial);

function set(patch: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)) {
  store.set((state) => ({ ...state, ...(typeof patch === 'function' ? patch(state) : patch) }));
}

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

// ---------------------------------------------------------------------------------------------------------
// Socket events

function onNewMessage({ chat, newMessage }: NewMessageEvent) {
  // A dispute's chat lives on /profile/disputes (its own thread), not in these lists; get_counters still counts it.
  if (chat.kind === 'dispute') return;
  set((s) => {
    const tab = tabOf(chat);
    const updated: Chat = { ...chat, last_message: newMessage };
    const wasListed = s.lists[tab].some((c) => c._id === chat._id);
    const lists = { ...s.lists, [tab]: [updated, ...withoutChat(s.lists[tab], chat._id)] };
    const totals = wasListed ? s.totals : { ...s.totals, [tab]: s.totals[tab] + 1 };
    const online = { ...s.online };
    for (const m of chat.members) online[m._id] = m.online_status;
    const isOpen = s.activeId === chat._id;
    const messages = isOpen && !s.messages.some((m) => m._id === newMessage._id) ? [newMessage, ...s.messages] : s.messages;
    return { lists, totals, online, messages };
  });
  if (store.get().activeId === chat._id && newMessage.sender._id !== store.get().me) markSeen(newMessage);
}

function onDeleteChat({ id }: DeleteChatEvent) {
  set((s) => ({
    lists: { chats: withoutChat(s.lists.chats, id), orders: withoutChat(s.lists.orders, id) },
    totals: {
      chats: s.totals.chats - (s.lists.chats.some((c) => c._id === id) ? 1 : 0),
      orders: s.totals.orders - (s.lists.orders.some((c) => c._id === id) ? 1 : 0),
    },
    ...(s.activeId === id ? { activeId: null, messages: [], page: 0, hasMore: false } : {}),
  }));
}

function onUpdateUser({ id, online_status }: UpdateUserEvent) {
  set((s) => ({
    online: { ...s.online, [id]: online_status },
    lists: mapChats(s, (c) =>
      c.members.some((m) => m._id === id) ? { ...c, members: c.members.map((m) => (m._id === id ? { ...m, online_status } : m)) } : c,
    ),
  }));
}

function onUpdateMessage({ id }: UpdateMessageEvent) {
  set((s) => ({
    messages: s.messages.some((m) => m._id === id) ? s.messages.map((m) => (m._id === id ? { ...m, seen: true } : m)) : s.messages,
    lists: mapChats(s, (c) => (c.last_message?._id === id ? { ...c, last_message: { ...c.last_message, seen: true } } : c)),
  }));
}

function onCounters(payload: CountersEvent) {
  const me = store.get().me;
  if (!me) return;
  set((s) => {
    const total = payload.totalUnseen[me];
    const inChat = payload.chatTotalUnseen[me];
    const disputes = payload.disputesUnseen?.[me];
    return {
      ...(typeof total === 'number' ? { total } : {}),
      ...(typeof disputes === 'number' ? { disputes } : {}),
      ...(typeof inChat === 'number'
        ? { lists: mapChats(s, (c) => (c._id === payload.chat_id ? { ...c, unseen_messages: inChat } : c)) }
        : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Calls

async function loadTotal() {
  try {
    const res = await api.read('chat.unseenTotal', {}, { fresh: true });
    if (typeof res.result === 'number') set({ total: res.result, disputes: res.disputes });
  } catch {
    // The badge simply stays as it is; the next get_counters corrects it.
  }
}

let users = 0;
let stopEvents: (() => void) | null = null;

export const chatStore = {
  subscribe: store.subscribe,
  getSnapshot: store.get,
  getServerSnapshot: store.getServerSnapshot,

  /** Starts following the signed-in person's chats (ref-counted: every badge and the page call it). */
  start(me: string): () => void {
    if (store.get().me !== me) {
      store.set({ ...initial, me });
      stopEvents?.();
      stopEvents = null;
    }
    users += 1;
    if (!stopEvents) {
      const offs = [
        onSocketEvent(SOCKET_EVENTS.newMessage, onNewMessage),
        onSocketEvent(SOCKET_EVENTS.deleteChat, onDeleteChat),
        onSocketEvent(SOCKET_EVENTS.updateUser, onUpdateUser),
        onSocketEvent(SOCKET_EVENTS.updateMessage, onUpdateMessage),
        onSocketEvent(SOCKET_EVENTS.counters, onCounters),
      ];
      stopEvents = () => offs.forEach((off) => off());
      void loadTotal();
    }
    set({});
    return () => {
      users -= 1;
      if (users === 0) {
        stopEvents?.();
        stopEvents = null;
      }
    };
  },

  async loadList(tab: ChatTab, more = false) {
    const page = more ? Math.floor(store.get().lists[tab].length / 20) + 1 : 1;
    try {
      const res = await api.read(tab === 'orders' ? 'chat.listByOrder' : 'chat.list', { query: { page, limit: 20 } }, { fresh: true });
      set((s) => {
        const known = more ? s.lists[tab] : [];
        const fresh = res.result.filter((c) => !known.some((k) => k._id === c._id));
        const online = { ...s.online };
        for (const c of res.result) for (const m of c.members) online[m._id] = m.online_status;
        return {
          lists: { ...s.lists, [tab]: [...known, ...fresh] },
          totals: { ...s.totals, [tab]: res.total ?? known.length + fresh.length },
          loaded: { ...s.loaded, [tab]: true },
          listError: { ...s.listError, [tab]: false },
          online,
        };
      });
    } catch {
      set((s) => ({ loaded: { ...s.loaded, [tab]: true }, listError: { ...s.listError, [tab]: true } }));
    }
  },

  /** Opens a chat (null closes it) and loads its newest page. */
  async open(id: string | null) {
    if (store.get().activeId === id) return;
    set({ activeId: id, messages: [], page: 0, hasMore: !!id, loadingMessages: false, messagesError: false });
    if (id) await chatStore.loadMore();
  },

  /** The next (older) page of the open chat. */
  async loadMore() {
    const id = store.get().activeId;
    if (!id || store.get().loadingMessages || !store.get().hasMore) return;
    const page = store.get().page + 1;
    set({ loadingMessages: true });
    let res: ApiOk<Message[]>;
    try {
      res = await api.read('chat.messages', { params: { chat_id: id }, query: { page, limit: MESSAGE_PAGE_SIZE, chat_id: id } }, { fresh: true });
    } catch {
      if (store.get().activeId === id) set({ loadingMessages: false, messagesError: true, hasMore: false });
      return;
    }
    if (store.get().activeId !== id) return;
    set((s) => {
      const older = res.result.filter((m) => !s.messages.some((k) => k._id === m._id));
      const messages = [...s.messages, ...older];
      return {
        messages,
        page,
        loadingMessages: false,
        hasMore: res.result.length === MESSAGE_PAGE_SIZE && (res.total === undefined || messages.length < res.total),
      };
    });
    if (page === 1) {
      const newestUnseen = store.get().messages.find((m) => m.sender._id !== store.get().me && !m.seen);
      if (newestUnseen) markSeen(newestUnseen);
    }
  },

  /** A message this person just sent (the socket's new_message may come before or after). */
  addSent(message: Message) {
    set((s) => ({
      messages: s.activeId === message.chat_id && !s.messages.some((m) => m._id === message._id) ? [message, ...s.messages] : s.messages,
      lists: mapChats(s, (c) => (c._id === message.chat_id ? { ...c, last_message: message } : c)),
    }));
  },

  async deleteChat(id: string): Promise<boolean> {
    const { error } = await api.write('chat.remove', { params: { id } });
    if (error) return false;
    onDeleteChat({ id });
    return true;
  },
};

/** SPEC §8: marking as read fails silently. Marks this message and the earlier ones seen. */
function markSeen(message: Message) {
  set((s) => ({
    messages: s.messages.map((m) => (m.sender._id !== s.me && !m.seen ? { ...m, seen: true } : m)),
  }));
  void api.write('chat.markSeen', { params: { id: message._id }, body: { seen: true } });
}

export function useChatState(): ChatState {
  return useStore(store);
}

/** Unseen messages: in every chat, in the chats of the messages page only, or in disputes' chats only. */
export type UnseenScope = 'all' | 'messages' | 'disputes';

export function useUnseenTotal(scope: UnseenScope = 'all'): number {
  return useStore(store, (s) => (scope === 'all' ? s.total : scope === 'disputes' ? s.disputes : Math.max(0, s.total - s.disputes)));
}
