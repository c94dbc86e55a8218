import { useSyncExternalStore, type ComponentProps, type ReactElement } from 'react';
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
function ClientAppLink({ prefetch, ...props }: AppLinkProps) {
  const allowed = usePrefetchAllowed();
  return <Link {...props} prefetch={resolvePrefetch(allowed, prefetch)} />;
}

/**
 * A path `<Link>` draws on the server exactly as written: absolute, without `//`, `.` or `..` segments or an empty
 * query or fragment (React Router would resolve or drop those). Linear: a segment cannot contain the `/` after it.
 */
const PLAIN_PATH = /^\/(?:[^/?#.\\][^/?#\\]*(?:\/[^/?#.\\][^/?#\\]*)*\/?)?(?:\?[^#]+)?(?:#.+)?$/u;

/** The props `<Link>` takes for itself: the others go to its anchor. */
const LINK_ONLY = new Set([
  'to',
  'target',
  'discover',
  'prefetch',
  'mask',
  'relative',
  'onClick',
  'reloadDocument',
  'replace',
  'state',
  'preventScrollReset',
  'viewTransition',
  'defaultShouldRevalidate',
]);

/**
 * The anchor React Router's `<Link>` draws on the server, drawn without it, or null where it would draw something else
 * (`app-link.test.tsx` compares the two). On the server `<Link>` runs eight hooks and resolves its path against
 * the route's matches, JSON and all: 11 % of the render thread's time on a service page, for its twenty links (ADR
 * 083). Its attributes are its own, in its order: the props it does not take, then `href`, `target` and `data-discover`.
 * Copied in a loop, not by a rest pattern: V8 copies a rest that leaves out thirteen names through its slow path, 3 µs
 * a link against 0.2 (ADR 083, session 56).
 */
export function serverAnchor(props: AppLinkProps): ReactElement | null {
  const { to, prefetch, discover = 'render' } = props;
  // `render` draws the page's prefetch links beside it; a mask or a relative path is resolved by the router.
  if (typeof to !== 'string' || !PLAIN_PATH.test(to) || prefetch === 'render' || props.mask !== undefined || props.relative !== undefined) return null;
  const anchor: Record<string, unknown> = {};
  for (const name in props) if (!LINK_ONLY.has(name)) anchor[name] = props[name as keyof AppLinkProps];
  anchor.href = to;
  anchor.target = props.target;
  anchor['data-discover'] = discover === 'render' ? 'true' : undefined;
  return <a {...anchor} />;
}

/** On the server, the plain anchor where `<Link>` would draw just that; in the browser, always `<Link>`. */
export const AppLink = import.meta.env.SSR ? (props: AppLinkProps) => serverAnchor(props) ?? <ClientAppLink {...props} /> : ClientAppLink;

export interface NavLinkProps extends Omit<ComponentProps<typeof Link>, 'className'> {
  /** Only the link's own address makes it current, not the addresses under it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}

function ClientNavLink({ end = false, className, ...props }: NavLinkProps) {
  const current = useLocation().pathname.toLowerCase();
  const path = useResolvedPath(props.to).pathname;
  return <Link {...currentLinkProps(props, className, isCurrent(current, path, end))} />;
}

/** On the server, a plain path's `<NavLink>` is drawn without resolving it (as `serverAnchor` does `<Link>`'s). */
function ServerNavLink({ end = false, className, ...props }: NavLinkProps) {
  const current = useLocation().pathname.toLowerCase();
  const { to } = props;
  if (typeof to !== 'string' || !PLAIN_PATH.test(to)) return <ClientNavLink end={end} className={className} {...props} />;
  const linkProps = currentLinkProps(props, className, isCurrent(current, to.split(/[?#]/u, 1)[0]!, end));
  return serverAnchor(linkProps) ?? <Link {...linkProps} />;
}

/** Whether the address `current` (lower case) is the link's `path`, or with `end` unset one under it. */
function isCurrent(current: string, path: string, end: boolean) {
  const own = path.toLowerCase();
  const prefix = own !== '/' && own.endsWith('/') ? own : `${own}/`;
  return current === own || (!end && own !== '/' && current.startsWith(prefix));
}

function currentLinkProps(props: Omit<NavLinkProps, 'end' | 'className'>, className: NavLinkProps['className'], isActive: boolean): AppLinkProps {
  return {
    ...props,
    'aria-current': isActive ? 'page' : undefined,
    className: typeof className === 'function' ? className({ isActive }) : [className, isActive && 'active'].filter(Boolean).join(' ') || undefined,
  };
}

/**
 * React Router's <NavLink> as the app uses it: `aria-current="page"` and the class `active` (or what `className`
 * makes of `isActive`) when the address is the link's or one under it, letters' case aside. Ours because React
 * Router's carries its pending and view-transition states into every page's code (0.5 KiB gzip, issue 31).
 */
export const NavLink = import.meta.env.SSR ? ServerNavLink : ClientNavLink;
