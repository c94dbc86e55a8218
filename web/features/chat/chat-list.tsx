import type { Chat } from '#contract/chat';
import type { OrderStatus } from '#contract/money';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';
import { Avatar } from '../../components/ui/avatar.tsx';
import { formatRelative } from '../../lib/dates.ts';
import { respondentOf, type ChatTab } from './store.ts';

export const fullName = (p: { name: string; surname: string; user_name?: string }) =>
  `${p.name} ${p.surname}`.trim() || p.user_name || 'Пользователь';

function preview(chat: Chat, me: string | null): string {
  const m = chat.last_message;
  if (!m) return 'Нет сообщений';
  const body = m.message.trim() || (m.files.length ? `Файлы: ${m.files.length}` : '');
  return `${m.sender._id === me ? 'Вы: ' : ''}${body}`;
}

export function OnlineDot({ online }: { online: boolean }) {
  return (
    <span className={`chat-dot${online ? ' chat-dot--on' : ''}`}>
      <span className="visually-hidden">{online ? 'в сети' : 'не в сети'}</span>
    </span>
  );
}

export interface ChatListProps {
  tab: ChatTab;
  chats: Chat[];
  me: string | null;
  activeId: string | null;
  loaded: boolean;
  error: boolean;
  canLoadMore: boolean;
  onOpen: (id: string) => void;
  onMore: () => void;
  onRetry: () => void;
}

export function ChatList({ tab, chats, me, activeId, loaded, error, canLoadMore, onOpen, onMore, onRetry }: ChatListProps) {
  if (!loaded) return <p className="chat-list__note">Загрузка…</p>;
  if (error)
    return (
      <div className="chat-list__note">
        <p>Не удалось загрузить чаты.</p>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRetry}>
          Обновить
        </button>
      </div>
    );
  if (chats.length === 0)
    return <p className="chat-list__note">{tab === 'orders' ? 'Чатов по заказам пока нет.' : 'Здесь появятся ваши переписки.'}</p>;
  return (
    <>
      <ul className="chat-list" data-testid={`chat-list-${tab}`}>
        {chats.map((chat) => {
          const other = respondentOf(chat, me);
          const name = other ? fullName(other) : 'Чат';
          const unseen = chat.unseen_messages;
          return (
            <li key={chat._id}>
              <button
                type="button"
                className={`chat-item${chat._id === activeId ? ' chat-item--active' : ''}`}
                aria-current={chat._id === activeId ? 'true' : undefined}
                data-chat-id={chat._id}
                onClick={() => onOpen(chat._id)}
              >
                <span className="chat-item__avatar">
                  <Avatar name={name} src={other?.avatar} size={44} />
                  <OnlineDot online={!!other?.online_status} />
                </span>
                <span className="chat-item__body">
                  <span className="chat-item__top">
                    <span className="chat-item__name">{name}</span>
                    {chat.last_message && (
                      <time className="chat-item__time" dateTime={chat.last_message.created_at}>
                        {formatRelative(chat.last_message.created_at)}
                      </time>
                    )}
                  </span>
                  {typeof chat.order?.number === 'number' && (
                    <span className="chat-item__order">
                      Заказ №{chat.order.number}
                      {typeof chat.order.status === 'string' && ORDER_STATUS_LABELS[chat.order.status as OrderStatus]
                        ? ` · ${ORDER_STATUS_LABELS[chat.order.status as OrderStatus]}`
                        : ''}
                    </span>
                  )}
                  <span className="chat-item__bottom">
                    <span className="chat-item__preview">{preview(chat, me)}</span>
                    {unseen > 0 && (
                      <span className="unseen-badge">
                        {unseen}
                        <span className="visually-hidden"> непрочитанных</span>
                      </span>
                    )}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {canLoadMore && (
        <button type="button" className="btn btn--ghost btn--sm chat-list__more" onClick={onMore}>
          Показать ещё
        </button>
      )}
    </>
  );
}
