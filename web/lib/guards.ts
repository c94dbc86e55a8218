import { data, redirect } from 'react-router';
import type { Me } from '#contract/api';
import { safeTarget } from './safe-target.ts';

// SPEC §6 guards, enforced in loaders on the server (document requests and client navigations alike).

/** authenticated: a guest goes to /login, coming back afterwards through ?from=. */
export function requireSignedIn(user: Me | null, request: Request): Me {
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/login?from=${encodeURIComponent(url.pathname + url.search)}`);
}

/** redirect-if-authenticated: a signed-in user leaves /login and /reg for ?from= or /. */
export function requireGuest(user: Me | null, request: Request) {
  if (!user) return;
  const url = new URL(request.url);
  throw redirect(safeTarget(url.searchParams.get('from'), url.origin));
}

/** is-admin: the admin area does not exist for anybody else. */
export function requireAdmin(user: Me | null, request: Request): Me {
  const me = requireSignedIn(user, request);
  if (!me.roles.includes('admin')) throw data('Page not found', { status: 404, statusText: 'Page not found' });
  return me;
}

/** SPEC §8: a page whose parameters fail validation answers 404 "Page Not Found". */
export const pageNotFound = () => data('Page Not Found', { status: 404, statusText: 'Page Not Found' });
