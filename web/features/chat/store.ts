import type { ApiOk } from '#contract/api';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';
import { SOCKET_EVENTS } from '#contract/chat-constants';
import type { CountersEvent, DeleteChatEvent, Message, NewMessageEvent, UpdateMessageEvent, UpdateUserEvent } from '#contract/chat';
import { api } from '../../lib/api.ts';
import { onSocketEvent, onSocketReconnect } from '../../lib/socket.ts';
import { createStore, useStore } from '../../lib/store.ts';
import {
  type ChatState,
  type ChatTab,
  initialChatState as initial,
  listPage,
  newestUnseen,
  type UnseenScope,
  unseenIn,
  withCaughtUp,
  withCounters,
  withDeletedChat,
  withListPage,
  withMessageSeen,
  withNewMessage,
  withOlderMessages,
  withOthersSeen,
  withSent,
  withUserStatus,
} from './state.ts';

// One small external store for everything chat (SPEC §4 "Messages and chats", "Socket"): the header badge,
// the profile menu and /profile/messages read the same state, and the socket events update it wherever the
// person is in the app. What each event makes of the state is state.ts.

const store = createStore<ChatState>(initial);

function set(patch: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)) {
  store.set((state) => ({ ...state, ...(typeof patch === 'function' ? patch(state) : patch) }));
}

// ---------------------------------------------------------------------------------------------------------
// Socket events

function onNewMessage(event: NewMessageEvent) {
  // A dispute's chat lives on /profile/disputes (its own thread), not in these lists; get_counters still counts it.
  if (event.chat.kind === 'dispute') return;
  set((s) => withNewMessage(s, event));
  const { activeId, me } = store.get();
  if (activeId === event.chat._id && event.newMessage.sender._id !== me) markSeen(event.newMessage);
}

const onDeleteChat = ({ id }: DeleteChatEvent) => set((s) => withDeletedChat(s, id));
const onUpdateUser = (event: UpdateUserEvent) => set((s) => withUserStatus(s, event));
const onUpdateMessage = ({ id }: UpdateMessageEvent) => set((s) => withMessageSeen(s, id));

function onCounters(payload: CountersEvent) {
  if (!store.get().me) return;
  set((s) => withCounters(s, payload));
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

/**
 * After a reconnect (another instance, a deploy, a network gap), what changed meanwhile is read again: events sent
 * while the socket was away are not replayed (ADR 013, issue 29).
 */
async function catchUp() {
  void loadTotal();
  const { loaded, activeId } = store.get();
  for (const tab of ['chats', 'orders'] as const) if (loaded[tab]) void chatStore.loadList(tab);
  if (!activeId) return;
  try {
    const res = await api.read('chat.messages', { params: { chat_id: activeId }, query: { page: 1, limit: MESSAGE_PAGE_SIZE, chat_id: activeId } }, { fresh: true });
    set((s) => withCaughtUp(s, activeId, res.result));
  } catch {
    // The next event or a reload shows them.
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
        onSocketReconnect(() => void catchUp()),
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
    const page = listPage(store.get().lists[tab].length, more);
    try {
      const res = await api.read(tab === 'orders' ? 'chat.listByOrder' : 'chat.list', { query: { page, limit: 20 } }, { fresh: true });
      set((s) => withListPage(s, tab, res, more));
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
    set((s) => withOlderMessages(s, page, res));
    if (page === 1) {
      const unseen = newestUnseen(store.get());
      if (unseen) markSeen(unseen);
    }
  },

  /** A message this person just sent (the socket's new_message may come before or after). */
  addSent(message: Message) {
    set((s) => withSent(s, message));
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
  set(withOthersSeen);
  void api.write('chat.markSeen', { params: { id: message._id }, body: { seen: true } });
}

export function useChatState(): ChatState {
  return useStore(store);
}

export function useUnseenTotal(scope: UnseenScope = 'all'): number {
  return useStore(store, (s) => unseenIn(s, scope));
}
