import { STORAGE_KEYS } from '#contract/constants';
import { saveToken } from '../../lib/token.ts';
import { safeTarget } from '../../lib/safe-target.ts';

/**
 * SPEC §4 sign-in: the token is saved (cookie for 7 days with remember-me, else for the session, and
 * session storage), isAuth tells other tabs, then the app loads as signed in — the socket connects and
 * the profile and rates are fetched by the root on that load.
 */
export function signIn(token: string, remember: boolean, to: string) {
  saveToken(token, remember);
  window.location.assign(safeTarget(to, window.location.origin));
}

export function storedReferralCode(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEYS.referralCode) ?? undefined;
  } catch {
    return undefined;
  }
}
