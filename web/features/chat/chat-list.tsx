import type { Chat } from '#contract/chat';
import { Avatar } from '../../components/ui/avatar.tsx';
import { formatRelative } from '../../lib/dates.ts';
import { fullName } from '../../lib/people.ts';
import { respondentOf, type ChatTab } from './state.ts';
import { chatOrderLine, chatPreview } from './format.ts';

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
          const orderLine = chatOrderLine(chat.order);
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
                  {orderLine && <span className="chat-item__order">{orderLine}</span>}
                  <span className="chat-item__bottom">
                    <span className="chat-item__preview">{chatPreview(chat, me)}</span>
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
