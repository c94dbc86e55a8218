import { useEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';
import { STORAGE_KEYS } from '#contract/constants';
import { useShell } from '../../lib/use-shell.ts';
import { recordNavigation } from './navigation-history.ts';
import { setCurrentUser } from '../../lib/current-user.ts';
import { currencyStore } from '../../lib/currency-store.ts';
import { logout } from './session.ts';
import { safeTarget } from '../../lib/safe-target.ts';
import { loadPaymentRates } from '../../lib/payment-rates.ts';
import { api, setApiBase } from '../../lib/api.ts';
import { getToken } from '../../lib/token.ts';
import { progressStore as progress } from '../../lib/progress-store.ts';
import { reloadOnce, startVersionCheck } from '../../lib/reload-guard.ts';

/** Remembers ?referralCode= (SPEC §2), forgetting it when it is the signed-in user's own code. */
export function rememberReferralCode(search: string, ownCode: string | undefined, storage: Storage) {
  const code = new URLSearchParams(search).get('referralCode');
  if (code) storage.setItem(STORAGE_KEYS.referralCode, code);
  if (ownCode && storage.getItem(STORAGE_KEYS.referralCode) === ownCode) storage.removeItem(STORAGE_KEYS.referralCode);
}

/** The app root's client-side duties (SPEC §2, §4): none of them renders anything. */
export function ShellEffects() {
  const { config, user } = useShell();
  const location = useLocation();
  const navigation = useNavigation();
  const newVersion = useRef(false);

  setCurrentUser(user);
  setApiBase(config.apiBase);

  // Progress bar for navigations as well as API calls.
  useEffect(() => progress.setNavigating(navigation.state !== 'idle'), [navigation.state]);

  useEffect(() => {
    rememberReferralCode(location.search, user?.referralCode, localStorage);
  }, [location.search, user?.referralCode]);

  // After a new version is published, the next navigation loads it in full.
  useEffect(() => {
    recordNavigation(location.pathname);
    if (newVersion.current) reloadOnce('new-version');
  }, [location.pathname]);

  useEffect(
    () =>
      startVersionCheck(config.buildId, {
        fetchLatest: () =>
          fetch('/builds/latest.json', { cache: 'no-store' }).then((r) => (r.ok ? (r.json() as Promise<{ id: string }>) : null)),
        onNewVersion: () => void (newVersion.current = true),
      }),
    [config.buildId],
  );

  // A chunk that fails to load (an old tab after a deploy) reloads the page, at most once in 10 s.
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      reloadOnce('chunk-load-error');
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);

  useEffect(() => currencyStore.restore(user?.preferences.currency), [user?.preferences.currency]);

  // The socket lives only while authenticated; signing in also fetches the payment rates. Keyed by the token, not by
  // the user object: every revalidation of the root brings a new object, and reconnecting then would drop the events
  // sent meanwhile (a page that revalidates on an event would miss the next one).
  const token = user ? getToken() : null;
  useEffect(() => {
    if (!token) return;
    loadPaymentRates();
    // The socket's module (and socket.io-client with it) is a signed-in person's only: imported here, not up front.
    let closed = false;
    const socket = import('../../lib/socket.ts');
    void socket.then(({ connectSocket }) => {
      if (closed) return;
      connectSocket(config.apiBase, token, () => {
        // Still signed in? If the server no longer accepts the token, this tab signs out too.
        api.read('users.me', {}, { fresh: true }).catch((err: { status?: number }) => {
          if (err.status === 401) logout();
        });
      });
    });
    return () => {
      closed = true;
      void socket.then(({ disconnectSocket }) => disconnectSocket());
    };
  }, [token, config.apiBase]);

  // SPEC §2: the isAuth key synchronises sign-in state between tabs.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.isAuth) return;
      if (event.newValue === 'true') {
        window.location.assign(safeTarget(new URLSearchParams(window.location.search).get('from'), window.location.origin));
      } else if (user) {
        logout();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [user]);

  return null;
}
