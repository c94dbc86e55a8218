/**
 * Where a `?from=` may send the visitor: a path of our own origin, else "/". The value is resolved the way a
 * browser would (`\` as `/`, tabs and newlines dropped, dot segments applied) and its origin compared, so
 * `/\evil`, `//evil`, `https://evil` or `javascript:` cannot lead elsewhere. Used by the guest guard on the
 * server, by sign-in and by the isAuth tab sync.
 */
export function safeTarget(from: string | null | undefined, origin: string): string {
  if (!from) return '/';
  let url: URL;
  try {
    url = new URL(from, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  // "/..//evil" resolves to the path "//evil" on our origin, which a Location header would read as another host.
  const target = `/${url.pathname.replace(/^\/+/, '')}${url.search}${url.hash}`;
  return new URL(target, origin).origin === origin ? target : '/';
}

/** Why a guest was sent to sign in: the login page says it (LOGIN_REASONS there). */
export type LoginReason = 'favorite';

/** /login that comes back to `to` afterwards (SPEC §2 `from`), saying why when a `reason` is given. */
export const loginPath = (to: string, reason?: LoginReason) => `/login?from=${encodeURIComponent(to)}${reason ? `&reason=${reason}` : ''}`;
