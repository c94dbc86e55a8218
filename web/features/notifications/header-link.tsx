// The bell through Icon itself: a named icon export would sit in the shell's shared chunk, on every guest's page.
import { Icon } from '../../components/ui/icons.tsx';
import { AppLink } from '../../components/ui/app-link.tsx';
import { useUnreadNotifications } from './store.ts';
import { badgeCount, unreadText } from './list.ts';

/** The header's bell with the unread count, for the signed-in person (in the signed-in header's lazy chunk). */
export function HeaderNotificationsLink() {
  const unread = useUnreadNotifications();
  return (
    <AppLink
      to="/profile/notifications"
      className="header-messages header-notifications"
      data-testid="notifications-link"
    >
      <Icon name="bell" size={22} aria-hidden />
      <span className="header__label">Уведомления</span>
      {unread > 0 && (
        <span className="unseen-badge" data-testid="notifications-unread">
          <span aria-hidden>{badgeCount(unread)}</span>
          <span className="visually-hidden">, {unreadText(unread)}</span>
        </span>
      )}
    </AppLink>
  );
}
