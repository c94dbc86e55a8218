/** The part of the Network Information API we read (navigator.connection). */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** A connection that may also emit 'change' events (real NetworkInformation does). */
export interface ObservableConnection extends ConnectionInfo {
  addEventListener?: (type: 'change', listener: () => void) => void;
  removeEventListener?: (type: 'change', listener: () => void) => void;
}

type NavigatorLike = { connection?: ObservableConnection } | undefined;

const SLOW_TYPES = new Set(['2g', 'slow-2g']);

/** False when the user asked to save data or the connection is 2G / slow-2G; true otherwise (or unknown). */
export function shouldPrefetch(connection?: ConnectionInfo | null): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return !(typeof connection.effectiveType === 'string' && SLOW_TYPES.has(connection.effectiveType));
}

/** navigator, or undefined during SSR. */
export function currentNavigator(): NavigatorLike {
  return typeof navigator === 'undefined' ? undefined : (navigator as unknown as NavigatorLike);
}

/** useSyncExternalStore snapshot: may links prefetch on this device right now? */
export function getPrefetchAllowed(nav: NavigatorLike = currentNavigator()): boolean {
  return shouldPrefetch(nav?.connection);
}

/** Server (and hydration) snapshot: always allow, so server and first client render match. */
export function getServerPrefetchAllowed(): boolean {
  return true;
}

/** useSyncExternalStore subscribe: re-evaluates when the connection changes. */
export function subscribeConnection(onChange: () => void, nav: NavigatorLike = currentNavigator()): () => void {
  const connection = nav?.connection;
  if (!connection?.addEventListener) return () => {};
  connection.addEventListener('change', onChange);
  return () => connection.removeEventListener?.('change', onChange);
}
