import { clearToken } from '../../lib/token.ts';
import { api } from '../../lib/api.ts';

let leaving = false;

/**
 * SPEC §4 logout: the socket disconnects, token, isAuth and user are cleared, then /login with a reload.
 * Runs once: a revoked session can trigger it twice (the button and the dropped socket), and a second
 * navigation would abort the first.
 */
export function logout() {
  if (leaving) return;
  leaving = true;
  // Loaded already while signed in (shell-effects), so this runs before the page is left.
  void import('../../lib/socket.ts').then(({ disconnectSocket }) => disconnectSocket());
  clearToken();
  api.clearCache();
  window.location.assign('/login');
}
