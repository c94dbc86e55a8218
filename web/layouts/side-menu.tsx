import { NavLink } from 'react-router';
import { PAGE_TITLES } from '../features/shell/page-titles.ts';
import { UnseenBadge } from '../features/chat/unseen-badge.tsx';

export function SideMenu({ label, items }: { label: string; items: readonly (readonly [string, string])[] }) {
  return (
    <nav aria-label={label} className="side-menu">
      <ul>
        {items.map(([to, id]) => (
          <li key={to}>
            <NavLink to={to} className={({ isActive }) => `side-menu__link${isActive ? ' side-menu__link--active' : ''}`}>
              {PAGE_TITLES[id]}
              {id === 'profile-messages' && <UnseenBadge />}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
