import { clearToken } from '../../lib/token.ts';
import { disconnectSocket } from '../../lib/socket.ts';
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
  disconnectSocket();
  clearToken();
  api.clearCache();
  window.location.assign('/login');
}
