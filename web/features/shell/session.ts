import { clearToken } from '../../lib/token.ts';
import { disconnectSocket } from '../../lib/socket.ts';
import { api } from '../../lib/api.ts';

/** SPEC §4 logout: the socket disconnects, token, isAuth and user are cleared, then /login with a reload. */
export function logout() {
  disconnectSocket();
  clearToken();
  api.clearCache();
  window.location.assign('/login');
}
