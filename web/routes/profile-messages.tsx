import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ArrowLeft, Trash2 } from '../components/ui/icons.tsx';
import type { Route } from './+types/profile-messages';
import type { SentMessage } from '#contract/chat';
import { pageMeta } from '../features/shell/index.ts';
import { useShell } from '../lib/use-shell.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { ConfirmDialog } from '../features/items/index.ts';
import { api } from '../lib/api.ts';
import { useSocketTransport } from '../lib/socket.ts';
import { toast } from '../lib/toast-store.ts';
import {
  ChatList,
  chatStore,
  type ChatTab,
  Composer,
  findChat,
  fullName,
  MessageLog,
  OnlineDot,
  respondentOf,
  type Target,
  useChatLive,
  useChatState,
} from '../features/chat/index.ts';
import { OrderCard } from '../features/orders/index.ts';
// The messages page's own stylesheet (ADR 024); the order card's.
import '../styles/chat.css';
import '../styles/items.css';
import '../styles/orders.css';
import '../styles/reviews.css';

// /profile/messages (SPEC §4 "Messages and chats"): the two chat lists, the open conversation and its composer,
// all live through the socket. ?chat={id} opens a chat; ?to={userId}&service={serviceId} opens (or, with the first
// message, creates) the direct chat with that person.

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Сообщения'), { name: 'robots', content: 'noindex' }];

const TABS: readonly { tab: ChatTab; label: string }[] = [
  { tab: 'chats', label: 'Чаты' },
  { tab: 'orders', label: 'Заказы' },
];

interface Person {
  _id: string;
  name: string;
  surname: string;
  user_name: string;
  avatar: string | null;
  online_status: boolean;
}

interface Pending {
  to: string;
  service?: string;
  person?: Person | null;
}

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

export default function MessagesPage() {
  const { user } = useShell();
  const transport = useSocketTransport();
  const s = useChatState();
  const me = user?._id ?? null;
  const [params] = useSearchParams();
  const [tab, setTab] = useState<ChatTab>(params.get('tab') === 'orders' ? 'orders' : 'chats');
  const [pending, setPending] = useState<Pending | null>(() => {
    const to = params.get('to');
    return to ? { to, service: params.get('service') ?? undefined } : null;
  });
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useChatLive();

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
    // Leaving the page closes the chat: nothing is marked seen behind the person's back.
    return () => void chatStore.open(null);
  }, [me]);

  // The deep link: the person's name for the empty conversation, or their chat once it is known.
  const pendingTo = pending?.to;
  useEffect(() => {
    if (!pendingTo) return;
    let live = true;
    api.read('people.profile', { params: { id: pendingTo } }).then(
      (res) => live && setPending((p) => (p && p.to === pendingTo ? { ...p, person: res.result } : p)),
      () => live && setPending((p) => (p && p.to === pendingTo ? { ...p, person: null } : p)),
    );
    return () => void (live = false);
  }, [pendingTo]);

  const active = findChat(s, s.activeId);
  const other = active ? respondentOf(active, me) : undefined;
  const otherOnline = other ? (s.online[other._id] ?? other.online_status) : false;
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
      setTab('chats');
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

  const target: Target | null = s.activeId
    ? { chat_id: s.activeId }
    : pending
      ? { recipient: pending.to, ...(pending.service ? { service_id: pending.service } : {}) }
      : null;

  const headerPerson = other ?? pending?.person ?? undefined;
  const headerName = headerPerson ? fullName(headerPerson) : pending && pending.person === null ? 'Пользователь не найден' : active ? 'Чат' : '';
  const headerOnline = other ? otherOnline : pending?.person ? (s.online[pending.person._id] ?? pending.person.online_status) : false;

  return (
    <section className="page chat-page" data-transport={transport}>
      <div className="chat-page__head">
        <h1 className="page__title">Сообщения</h1>
        <ConnectionLost transport={transport} />
      </div>
      <div className={`chat${showConversation ? ' chat--open' : ''}`} ref={chatBox}>
        <div className="chat__aside">
          <div className="chat-tabs" role="tablist" aria-label="Списки чатов">
            {TABS.map((t) => {
              const unseen = s.lists[t.tab].reduce((n, c) => n + c.unseen_messages, 0);
              return (
                <button
                  key={t.tab}
                  type="button"
                  role="tab"
                  id={`chat-tab-${t.tab}`}
                  aria-selected={tab === t.tab}
                  aria-controls="chat-tabpanel"
                  className="chat-tabs__tab"
                  onClick={() => setTab(t.tab)}
                >
                  {t.label}
                  {unseen > 0 && <span className="tabs__count">{unseen}</span>}
                </button>
              );
            })}
          </div>
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
              <div className="chat-head">
                <button
                  type="button"
                  className="btn btn--quiet chat-head__back"
                  onClick={() => {
                    setPending(null);
                    void chatStore.open(null);
                  }}
                >
                  <ArrowLeft size={18} aria-hidden />
                  <span className="visually-hidden">Назад к списку чатов</span>
                </button>
                <Avatar name={headerName || '?'} src={headerPerson?.avatar} size={40} />
                <div className="chat-head__who">
                  <h2 className="chat-head__name">{headerName}</h2>
                  <span className="chat-head__status" data-testid="chat-online">
                    <OnlineDot online={headerOnline} />
                    <span aria-hidden>{headerOnline ? 'в сети' : 'не в сети'}</span>
                  </span>
                </div>
                {active?.kind === 'direct' && (
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm chat-head__delete"
                    aria-label="Удалить чат"
                    onClick={() => setConfirming(true)}
                  >
                    <Trash2 size={16} aria-hidden /> <span className="chat-head__delete-label">Удалить чат</span>
                  </button>
                )}
              </div>
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
