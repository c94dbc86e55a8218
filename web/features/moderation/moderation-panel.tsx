import type { ReactNode } from 'react';
import { ExternalLink } from '../../components/ui/icons.tsx';
import type { PublicUser } from '#contract/catalog';
import { formatDate } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { isPublic, type ItemKind, publicPath, StatusBadge } from '../items/index.ts';
import { ModerationActions } from './moderation-actions.tsx';

export interface ModerationPanelProps {
  kind: ItemKind;
  item: { _id: string; title: string; status: string; category: string; created_at: string; updated_at?: string };
  owner: PublicUser;
  ownerNote?: string;
  reason: string | null;
  onDone: () => void | Promise<void>;
  children?: ReactNode;
}

/** The head of an admin edit page: state, owner, reason on record and the decisions, above the form. */
export function ModerationPanel({ kind, item, owner, ownerNote, reason, onDone, children }: ModerationPanelProps) {
  const name = `${owner.name} ${owner.surname}`.trim() || owner.user_name;
  return (
    <section className="card moderation-panel" aria-labelledby="moderation-title">
      <h2 id="moderation-title" className="card__title">
        Модерация
      </h2>
      <dl className="facts moderation-panel__facts">
        <dt>Состояние</dt>
        <dd>
          <StatusBadge kind={kind} status={item.status} />
        </dd>
        {reason && (
          <>
            <dt>Причина</dt>
            <dd>{reason}</dd>
          </>
        )}
        <dt>{kind === 'service' ? 'Продавец' : 'Заказчик'}</dt>
        <dd>
          <AppLink to={`/admin/users/${owner._id}`} className="user-cell">
            <Avatar name={name} src={owner.avatar} size={28} />
            <span>
              {name} <span className="field__hint">@{owner.user_name}</span>
              {ownerNote && <span className="field__hint queue__note">{ownerNote}</span>}
            </span>
          </AppLink>
        </dd>
        <dt>Создан{kind === 'service' ? 'а' : ''}</dt>
        <dd>
          {formatDate(item.created_at)}
          {item.updated_at && item.updated_at !== item.created_at
            ? `, изменен${kind === 'service' ? 'а' : ''} ${formatDate(item.updated_at)}`
            : ''}
        </dd>
      </dl>
      <div className="moderation-panel__actions">
        <ModerationActions kind={kind} item={item} onDone={onDone} />
        {isPublic(kind, item.status) && (
          <AppLink to={publicPath(kind, item)} className="btn btn--ghost">
            <ExternalLink size={16} aria-hidden="true" /> Открыть на сайте
          </AppLink>
        )}
      </div>
      {children}
    </section>
  );
}
