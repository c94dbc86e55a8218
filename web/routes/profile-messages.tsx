import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Route } from './+types/profile-messages';
import type { SentMessage } from '#contract/chat';
import { pageMeta } from '../lib/meta.ts';
import { useShell } from '../lib/use-shell.ts';
import { ConfirmDialog } from '../components/ui/dialog.tsx';
import { api } from '../lib/api.ts';
import { useSocketTransport } from '../lib/socket.ts';
import { toast } from '../lib/toast-store.ts';
import {
  aboutService,
  ChatHead,
  ChatList,
  ChatServiceCard,
  chatStore,
  type ChatTab,
  ChatTabs,
  Composer,
  conversationHead,
  findChat,
  MessageLog,
  messageTarget,
  type Pending,
  pendingFromAddress,
  respondentOf,
  tabFromAddress,
  tabToOpen,
  useChatLive,
  useChatState,
} from '../features/chat/index.ts';
import { OrderCard } from '../features/orders/index.ts';
// The messages page's own stylesheet (ADR 024); the order card's.
import '../styles/chat.css';
import '../styles/items.css';
import '../styles/orders.css';
import '../styles/order-items.css';
import '../styles/reviews.css';

// /profile/messages (SPEC §4 "Messages and chats"): the two chat lists, the open conversation and its composer,
// all live through the socket. ?tab=orders opens the orders' list (with no tab, the list with news); ?chat={id} opens a
// chat; ?to={userId}&service={serviceId} opens (or, with the first message, creates) the direct chat with that person.

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Сообщения'), { name: 'robots', content: 'noindex' }];

/** How long a lost connection may last before the page says so (a page's first connect takes a moment). */
const LOST_AFTER_MS = 3_000;

/**
 * Says so only when the live connection is lost; the transport's name is a diagnostic, shown on /test (SPEC §4),
 * and kept on the page's `data-transport` for tests.
 */
function ConnectionLost({ transport }: { transport: string }) {
  // Once a loss has lasted that long, a later one is said at once.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (transport !== 'N/A') return;
    const timer = setTimeout(() => setWaited(true), LOST_AFTER_MS);
    return () => clearTimeout(timer);
  }, [transport]);
  if (transport !== 'N/A' || !waited) return null;
  return (
    <p className="chat-conn" role="status">
      <span className="chat-dot" aria-hidden /> Нет соединения, переподключаемся…
    </p>
  );
}

type SetPending = React.Dispatch<React.SetStateAction<Pending | null>>;

/**
 * Loads both lists and opens the chat the address names (?chat=, or the direct chat with ?to= once it is listed);
 * leaving the page closes the chat, so nothing is marked seen behind the person's back.
 */
function useChatLists(me: string | null, setPending: SetPending) {
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const to = query.get('to');
    void chatStore.loadList('chats').then(() => {
      // The deep link to someone already in the list opens that chat.
      const { lists } = chatStore.getSnapshot();
      const existing = to ? lists.chats.find((c) => c.kind === 'direct' && respondentOf(c, me)?._id === to) : undefined;
      if (!existing) return;
      setPending((p) => (p?.to === to ? null : p));
      void chatStore.open(existing._id);
    });
    void chatStore.loadList('orders');
    const chat = query.get('chat');
    if (chat) void chatStore.open(chat);
    return () => void chatStore.open(null);
  }, [me, setPending]);
}

/** The deep link: the person's name for the empty conversation (null when there is no such person). */
function useLinkedPerson(pendingTo: string | undefined, setPending: SetPending) {
  useEffect(() => {
    if (!pendingTo) return;
    let live = true;
    api.read('people.profile', { params: { id: pendingTo } }).then(
      (res) => live && setPending((p) => (p && p.to === pendingTo ? { ...p, person: res.result } : p)),
      () => live && setPending((p) => (p && p.to === pendingTo ? { ...p, person: null } : p)),
    );
    return () => void (live = false);
  }, [pendingTo, setPending]);
}

/**
 * The open tab: the address's (?tab=), else, once both lists are in, the one with news (tabToOpen); a tab the person
 * picks before that stays theirs.
 */
function useChatTab(params: URLSearchParams, s: ReturnType<typeof useChatState>): [ChatTab, (tab: ChatTab) => void] {
  const [tab, setTab] = useState<ChatTab>(() => tabFromAddress(params));
  const chosen = useRef(params.has('tab') || params.has('to'));
  useEffect(() => {
    if (chosen.current || !s.loaded.chats || !s.loaded.orders) return;
    chosen.current = true;
    setTab(tabToOpen(s.lists, s.activeId));
  }, [s.loaded.chats, s.loaded.orders, s.lists, s.activeId]);
  const choose = (picked: ChatTab) => {
    chosen.current = true;
    setTab(picked);
  };
  return [tab, choose];
}

export default function MessagesPage() {
  const { user } = useShell();
  const transport = useSocketTransport();
  const s = useChatState();
  const me = user?._id ?? null;
  const [params] = useSearchParams();
  const [tab, chooseTab] = useChatTab(params, s);
  const [pending, setPending] = useState<Pending | null>(() => pendingFromAddress(params));
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useChatLive();

  useChatLists(me, setPending);
  useLinkedPerson(pending?.to, setPending);

  const active = findChat(s, s.activeId);
  const other = active ? respondentOf(active, me) : undefined;
  const showConversation = !!s.activeId || !!pending;
  // On a phone an open conversation fills the screen under the header, its message box in view (issue 15, 2).
  const chatBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (showConversation && window.matchMedia('(max-width: 700px)').matches) chatBox.current?.scrollIntoView({ block: 'start' });
  }, [showConversation]);

  const openChat = (id: string) => {
    setPending(null);
    void chatStore.open(id);
  };

  const onSent = (message: SentMessage) => {
    if (pending || s.activeId !== message.chat_id) {
      setPending(null);
      chooseTab('chats');
      void chatStore.open(message.chat_id);
    } else {
      chatStore.addSent(message);
    }
  };

  async function remove() {
    if (!s.activeId) return;
    setDeleting(true);
    const ok = await chatStore.deleteChat(s.activeId);
    setDeleting(false);
    setConfirming(false);
    toast(ok ? 'Чат удалён' : 'Не удалось удалить чат', ok ? { type: 'success' } : undefined);
  }

  const target = messageTarget(s.activeId, pending);
  const service = aboutService(pending, active, s.messages);
  const head = conversationHead({ active, other, pending, online: s.online });

  return (
    <section className="page chat-page" data-transport={transport}>
      <div className="chat-page__head">
        <h1 className="page__title">Сообщения</h1>
        <ConnectionLost transport={transport} />
      </div>
      <div className={`chat${showConversation ? ' chat--open' : ''}`} ref={chatBox}>
        <div className="chat__aside">
          <ChatTabs tab={tab} lists={s.lists} onTab={chooseTab} />
          <div id="chat-tabpanel" role="tabpanel" aria-labelledby={`chat-tab-${tab}`} className="chat__list">
            <ChatList
              tab={tab}
              chats={s.lists[tab]}
              me={me}
              activeId={s.activeId}
              loaded={s.loaded[tab]}
              error={s.listError[tab]}
              canLoadMore={s.lists[tab].length < s.totals[tab]}
              onOpen={openChat}
              onMore={() => void chatStore.loadList(tab, true)}
              onRetry={() => void chatStore.loadList(tab)}
            />
          </div>
        </div>
        <div className="chat__main">
          {showConversation && target ? (
            <>
              <ChatHead
                name={head.name}
                avatar={head.person?.avatar}
                online={head.online}
                deletable={active?.kind === 'direct'}
                onBack={() => {
                  setPending(null);
                  void chatStore.open(null);
                }}
                onDelete={() => setConfirming(true)}
              />
              {service && <ChatServiceCard key={`service-${service}`} id={service} />}
              {active?.kind === 'order' && active.order && <OrderCard key={`order-${active._id}`} orderId={active.order._id} chatId={active._id} />}
              <MessageLog
                // Keys apart from the composer's and the order card's: siblings with one key confuse React (the log
                // was left behind in the page, once per update).
                key={`log-${s.activeId ?? `to-${pending?.to}`}`}
                messages={s.messages}
                me={me}
                hasMore={s.hasMore}
                loading={s.loadingMessages}
                error={s.messagesError}
                onLoadMore={() => void chatStore.loadMore()}
                empty={pending ? 'Напишите первое сообщение — чат появится у вас обоих.' : 'Сообщений пока нет.'}
              />
              <Composer key={`composer-${s.activeId ?? 'new'}`} target={target} onSent={onSent} />
            </>
          ) : (
            <p className="chat__placeholder">Выберите чат слева, чтобы увидеть переписку.</p>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Удалить чат?"
        text="Переписка исчезнет только у вас; у собеседника она останется."
        confirmLabel="Удалить"
        danger
        busy={deleting}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
