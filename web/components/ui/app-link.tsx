import { useSyncExternalStore, type ComponentProps } from 'react';
import { Link } from 'react-router';
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
