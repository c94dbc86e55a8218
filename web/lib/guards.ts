import { data, redirect } from 'react-router';
import type { Me } from '#contract/api';
import { safeTarget } from './safe-target.ts';

// SPEC §6 guards, enforced in loaders on the server (document requests and client navigations alike).

/** authenticated: a guest goes to /login, coming back afterwards through ?from=. */
export function requireSignedIn(user: Me | null, url: URL): Me {
  if (user) return user;
  throw redirect(`/login?from=${encodeURIComponent(url.pathname + url.search)}`);
}

/** redirect-if-authenticated: a signed-in user leaves /login and /reg for ?from= or /. */
export function requireGuest(user: Me | null, url: URL) {
  if (!user) return;
  throw redirect(safeTarget(url.searchParams.get('from'), url.origin));
}

/** Where an administrator without the second factor the policy asks for is sent first (ADR 054). */
export const TWO_FACTOR_SETUP_PATH = '/profile/settings?reason=two-factor#two-factor';

/**
 * is-admin: the admin area does not exist for anybody else; an administrator without a second factor, while the
 * operator's policy asks admins for one, is sent to set it up first.
 */
export function requireAdmin(user: Me | null, url: URL, twoFactorRequired = false): Me {
  const me = requireSignedIn(user, url);
  if (!me.roles.includes('admin')) throw data('Page not found', { status: 404, statusText: 'Page not found' });
  if (twoFactorRequired && !me.two_factor) throw redirect(TWO_FACTOR_SETUP_PATH);
  return me;
}

/** SPEC §8: a page whose parameters fail validation answers 404 "Page Not Found". */
export const pageNotFound = () => data('Page Not Found', { status: 404, statusText: 'Page Not Found' });
