import { useSyncExternalStore, type ComponentProps } from 'react';
import { Link, useLocation, useResolvedPath } from 'react-router';
import { getPrefetchAllowed, getServerPrefetchAllowed, subscribeConnection } from '../../lib/prefetch.ts';

export type AppLinkProps = ComponentProps<typeof Link>;
type PrefetchBehavior = NonNullable<AppLinkProps['prefetch']>;

const subscribe = (onChange: () => void) => subscribeConnection(onChange);
const getSnapshot = () => getPrefetchAllowed();

/**
 * Whether links may prefetch. SSR and hydration use `true` (so markup matches);
 * right after hydration React switches to the real value if the connection is slow / save-data.
 */
export function usePrefetchAllowed(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getServerPrefetchAllowed);
}

/** Picks the prefetch mode: 'none' on slow connections, else the requested one (default 'intent'). */
export function resolvePrefetch(allowed: boolean, requested: PrefetchBehavior | undefined): PrefetchBehavior {
  return allowed ? (requested ?? 'intent') : 'none';
}

/** React Router <Link> that prefetches on intent unless the user is on save-data / 2G. */
export function AppLink({ prefetch, ...props }: AppLinkProps) {
  const allowed = usePrefetchAllowed();
  return <Link {...props} prefetch={resolvePrefetch(allowed, prefetch)} />;
}

export interface NavLinkProps extends Omit<ComponentProps<typeof Link>, 'className'> {
  /** Only the link's own address makes it current, not the addresses under it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}

/**
 * React Router's <NavLink> as the app uses it: `aria-current="page"` and the class `active` (or what `className`
 * makes of `isActive`) when the address is the link's or one under it, letters' case aside. Ours because React
 * Router's carries its pending and view-transition states into every page's code (0.5 KiB gzip, issue 31).
 */
export function NavLink({ end = false, className, ...props }: NavLinkProps) {
  const current = useLocation().pathname.toLowerCase();
  const path = useResolvedPath(props.to).pathname.toLowerCase();
  const prefix = path !== '/' && path.endsWith('/') ? path : `${path}/`;
  const isActive = current === path || (!end && path !== '/' && current.startsWith(prefix));
  return (
    <Link
      {...props}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : [className, isActive && 'active'].filter(Boolean).join(' ') || undefined}
    />
  );
}
