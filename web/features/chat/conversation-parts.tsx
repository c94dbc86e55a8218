import { ArrowLeft, Trash2 } from '../../components/ui/icons.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import type { Chat } from '#contract/chat';
import { OnlineDot } from './chat-list.tsx';
import { CHAT_TABS, tabUnseen } from './conversation.ts';
import type { ChatTab } from './state.ts';

// The messages page's frame: the two lists' tabs with their unseen counts, and the open conversation's head.

export function ChatTabs({ tab, lists, onTab }: { tab: ChatTab; lists: Record<ChatTab, Chat[]>; onTab: (tab: ChatTab) => void }) {
  return (
    <div className="chat-tabs" role="tablist" aria-label="Списки чатов">
      {CHAT_TABS.map((t) => {
        const unseen = tabUnseen(lists[t.tab]);
        return (
          <button
            key={t.tab}
            type="button"
            role="tab"
            id={`chat-tab-${t.tab}`}
            aria-selected={tab === t.tab}
            aria-controls="chat-tabpanel"
            className="chat-tabs__tab"
            onClick={() => onTab(t.tab)}
          >
            {t.label}
            {unseen > 0 && <span className="tabs__count">{unseen}</span>}
          </button>
        );
      })}
    </div>
  );
}

export interface ChatHeadProps {
  name: string;
  avatar: string | null | undefined;
  online: boolean;
  /** A direct chat may be deleted (for this person only); order chats may not. */
  deletable: boolean;
  onBack: () => void;
  onDelete: () => void;
}

/** Back to the lists (on a phone), who the conversation is with and whether they are online, and «Удалить чат». */
export function ChatHead({ name, avatar, online, deletable, onBack, onDelete }: ChatHeadProps) {
  return (
    <div className="chat-head">
      <button type="button" className="btn btn--quiet chat-head__back" onClick={onBack}>
        <ArrowLeft size={18} aria-hidden />
        <span className="visually-hidden">Назад к списку чатов</span>
      </button>
      <Avatar name={name || '?'} src={avatar} size={40} />
      <div className="chat-head__who">
        <h2 className="chat-head__name">{name}</h2>
        <span className="chat-head__status" data-testid="chat-online">
          <OnlineDot online={online} />
          <span aria-hidden>{online ? 'в сети' : 'не в сети'}</span>
        </span>
      </div>
      {deletable && (
        <button type="button" className="btn btn--ghost btn--sm chat-head__delete" aria-label="Удалить чат" onClick={onDelete}>
          <Trash2 size={16} aria-hidden /> <span className="chat-head__delete-label">Удалить чат</span>
        </button>
      )}
    </div>
  );
}
