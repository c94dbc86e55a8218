import { LogOut, Plus, Shield, User } from '../../components/ui/icons.tsx';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { HeaderMessagesLink, UnseenBadge, unseenText, useUnseenTotal } from '../chat/index.ts';
import { useBidsFlag } from '../bids/index.ts';
import { HeaderNotificationsLink, unreadText, useUnreadNotifications } from '../notifications/index.ts';
import { Burger, type BurgerProps } from './burger.tsx';
import { logoutModal } from './logout-store.ts';
import { RoleToggle } from './role-toggle.tsx';
import { POST_PROJECT_PATH } from '../../lib/post-project.ts';

// What only a signed-in person's header shows, in a chunk of its own (header.tsx and root.tsx load it lazily).

export { LogoutModal } from './logout-modal.tsx';

/** The messages link is inside the collapsed menu: the burger carries its unseen count. */
export function SignedInBurger(props: BurgerProps) {
  const unseen = useUnseenTotal();
  const newBids = useBidsFlag();
  const unread = useUnreadNotifications();
  const notes = [unseen > 0 ? unseenText(unseen) : null, unread > 0 ? unreadText(unread) : null, newBids ? 'есть новые отклики' : null]
    .filter(Boolean)
    .join(', ');
  return (
    <Burger
      {...props}
      unseen={notes || undefined}
      badge={
        <>
          <UnseenBadge className="header__burger-badge" testId="unseen-total-menu" />
          {newBids && <span className="bids-dot header__burger-dot" data-testid="bids-flag-menu" aria-hidden />}
          {!newBids && unread > 0 && <span className="bids-dot header__burger-dot" data-testid="notifications-menu-dot" aria-hidden />}
        </>
      }
    />
  );
}

export function SignedInControls() {
  return (
    <>
      <RoleToggle />
      <HeaderMessagesLink />
      <HeaderNotificationsLink />
      <UserMenu />
    </>
  );
}

function UserMenu() {
  const { user } = useShell();
  const newBids = useBidsFlag();
  if (!user) return null;
  const fullName = `${user.name} ${user.surname}`.trim();
  return (
    <details className="user-menu">
      <summary className="user-menu__toggle" aria-label={`${user.name} — меню пользователя${newBids ? ', есть новые отклики' : ''}`}>
        <Avatar name={fullName || user.user_name} src={user.avatar} size={32} />
        {newBids && <span className="bids-dot" data-testid="bids-flag" aria-hidden />}
        <span className="user-menu__name">{user.name}</span>
      </summary>
      <ul className="user-menu__panel">
        <li>
          <AppLink to="/profile/dashboard">
            <User size={16} aria-hidden /> Профиль
          </AppLink>
        </li>
        <li>
          <AppLink to={POST_PROJECT_PATH}>
            <Plus size={16} aria-hidden /> Разместить проект
          </AppLink>
        </li>
        <li>
          <AppLink to="/profile/messages">Сообщения</AppLink>
        </li>
        <li>
          <AppLink to="/profile/notifications">Уведомления</AppLink>
        </li>
        <li>
          <AppLink to="/profile/orders">Заказы</AppLink>
        </li>
        <li>
          <AppLink to="/profile/bids">
            Отклики
            {newBids && (
              <>
                <span className="bids-dot" aria-hidden />
                <span className="visually-hidden"> (есть новые)</span>
              </>
            )}
          </AppLink>
        </li>
        <li>
          <AppLink to="/profile/settings">Настройки</AppLink>
        </li>
        {user.roles.includes('admin') && (
          <li>
            <AppLink to="/admin">
              <Shield size={16} aria-hidden /> Администрирование
            </AppLink>
          </li>
        )}
        <li>
          <button type="button" onClick={logoutModal.open} className="user-menu__logout">
            <LogOut size={16} aria-hidden /> Выйти
          </button>
        </li>
      </ul>
    </details>
  );
}
