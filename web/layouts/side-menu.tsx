import { useRef } from 'react';
import { useLocation } from 'react-router';
import { NavLink } from '../components/ui/app-link.tsx';
import { useRevealCurrent } from '../lib/reveal-current.ts';
import { PAGE_TITLES } from '../features/shell/index.ts';
import { UnseenBadge } from '../features/chat/index.ts';

export function SideMenu({ label, items }: { label: string; items: readonly (readonly [string, string])[] }) {
  const strip = useRef<HTMLUListElement>(null);
  useRevealCurrent(strip, useLocation().pathname);
  return (
    <nav aria-label={label} className="side-menu">
      <ul ref={strip}>
        {items.map(([to, id]) => (
          <li key={to}>
            <NavLink to={to} end={to.split('/').length === 2} className={({ isActive }) => `side-menu__link${isActive ? ' side-menu__link--active' : ''}`}>
              {PAGE_TITLES[id]}
              {/* The messages page lists no dispute's chat: their unseen messages are counted on «Споры». */}
              {id === 'profile-messages' && <UnseenBadge scope="messages" testId="unseen-messages" />}
              {id === 'profile-disputes' && <UnseenBadge scope="disputes" testId="unseen-disputes" />}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
