import { useEffect } from 'react';
import { MessageCircle } from '../../components/ui/icons.tsx';
import { AppLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { chatStore, useUnseenTotal } from './store.ts';
import type { UnseenScope } from './state.ts';
import { pluralWithCount } from '../../lib/dates.ts';

/** Follows the signed-in person's chats while mounted (the header is, on every page). */
export function useChatLive() {
  const { user } = useShell();
  const id = user?._id;
  useEffect(() => (id ? chatStore.start(id) : undefined), [id]);
}

export const unseenText = (n: number) => pluralWithCount(n, 'непрочитанное', 'непрочитанных', 'непрочитанных');

/** An unseen count as a small badge (nothing when zero): every chat's by default. */
export function UnseenBadge({ className = '', testId = 'unseen-total', scope = 'all' }: { className?: string; testId?: string; scope?: UnseenScope }) {
  const total = useUnseenTotal(scope);
  if (total <= 0) return null;
  return (
    <span className={`unseen-badge ${className}`.trim()} data-testid={testId}>
      <span aria-hidden>{total > 99 ? '99+' : total}</span>
      <span className="visually-hidden">, {unseenText(total)}</span>
    </span>
  );
}

/** The header's messages link with the unseen badge, for the signed-in user. */
export function HeaderMessagesLink() {
  useChatLive();
  const { user } = useShell();
  if (!user) return null;
  return (
    <AppLink to="/profile/messages" className="header-messages">
      <MessageCircle size={22} aria-hidden />
      <span className="header__label">Сообщения</span>
      <UnseenBadge />
    </AppLink>
  );
}
