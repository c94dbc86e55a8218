import type { Socket } from 'socket.io-client';
import {
  SOCKET_CONNECT_TIMEOUT_MS,
  SOCKET_RANDOMIZATION,
  SOCKET_RECONNECT_DELAY_MAX_MS,
  SOCKET_RECONNECT_DELAY_MS,
} from '#contract/constants';
import type { ClientToServerEvents, ServerEvent, ServerEventArgs, ServerToClientEvents } from '#contract/events';
import { createStore, useStore } from './store.ts';

// SPEC §4/§9: one socket, only when authenticated; long polling only, no multiplexing, bearer token
// in the auth data; reconnects 1–5 s with randomisation 0.5, forever; connect timeout 20 s.
// socket.io-client (13 KiB gzip) is imported when a signed-in person connects, never on a guest's pages (issue 11).

export const SOCKET_OPTIONS = {
  path: '/socket.io/',
  transports: ['polling'],
  multiplex: false,
  reconnection: true,
  reconnectionAttempts: Infinity,
  reconnectionDelay: SOCKET_RECONNECT_DELAY_MS,
  reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MAX_MS,
  randomizationFactor: SOCKET_RANDOMIZATION,
  timeout: SOCKET_CONNECT_TIMEOUT_MS,
  autoConnect: false,
} as const;

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: ClientSocket | null = null;
/** Counts connects and disconnects: a client library that arrives after a disconnect (or a newer connect) is not used. */
let generation = 0;
/** The connected socket's transport name ('polling'), 'N/A' without one. */
const transport = createStore('N/A');
type EventHandler<E extends ServerEvent> = (...args: ServerEventArgs<E>) => void;
/** Every server event's subscribers (the type asks for a set per event of the map). */
const eventHandlers: { [E in ServerEvent]: Set<EventHandler<E>> } = {
  new_message: new Set(),
  delete_chat: new Set(),
  update_user: new Set(),
  update_message: new Set(),
  get_counters: new Set(),
  bids_flag: new Set(),
  order_updated: new Set(),
  notifications: new Set(),
  new_dispute: new Set(),
};

/**
 * Subscribes to a server event of the user's socket, whether it is connected yet or not (and across
 * reconnects and new sockets after signing in again). Returns the unsubscribe function.
 */
export function onSocketEvent<E extends ServerEvent>(event: E, handler: EventHandler<E>): () => void {
  const set = eventHandlers[event];
  set.add(handler);
  return () => void set.delete(handler);
}

/** Hands an event of the socket to its subscribers (the socket's events are those of ServerToClientEvents). */
function dispatch<E extends ServerEvent>(event: E, ...args: ServerEventArgs<E>) {
  // An event the map does not know (a newer server) has no subscribers.
  if (!Object.hasOwn(eventHandlers, event)) return;
  for (const handler of [...eventHandlers[event]]) handler(...args);
}

/** Whoever shows live state and reads it again when the socket (re)connects; `pending` waits for the first connect. */
const reconnectHandlers = new Set<{ handler: () => void; pending: boolean }>();

/**
 * Runs `handler` each time the socket comes back after a disconnect (issue 29): events sent while it was away are
 * not replayed (ADR 013), so what they would have changed must be read again. With `firstConnect`, it also runs on
 * the first connect after it subscribed, if the socket was not connected then: a page loaded before its socket had
 * joined would miss an event sent in between (ADR 044). Returns the unsubscribe function.
 */
export function onSocketReconnect(handler: () => void, { firstConnect = false } = {}): () => void {
  const entry = { handler, pending: firstConnect && !socket?.connected };
  reconnectHandlers.add(entry);
  return () => void reconnectHandlers.delete(entry);
}

/** The socket's transport ('polling', or 'N/A' while not connected), for the diagnostics page and the chat. */
export const useSocketTransport = () => useStore(transport);

/**
 * Connects the user's socket once socket.io-client has loaded. `onDropped` runs when the server itself ends the
 * connection (the session was revoked: logout everywhere, a password change elsewhere, a block) so the app can check
 * and sign out.
 */
export function connectSocket(apiBase: string, token: string, onDropped?: () => void): void {
  const auth = { token: `Bearer ${token}` };
  if (socket) {
    socket.auth = auth;
    if (!socket.connected) socket.connect();
    return;
  }
  const mine = ++generation;
  import('socket.io-client').then(
    ({ io }) => {
      if (mine !== generation || socket) return;
      const created: ClientSocket = io(apiBase || undefined, { ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports], auth });
      socket = created;
      created.onAny(dispatch);
      let connectedBefore = false;
      created.on('connect', () => {
        transport.set(created.io.engine?.transport?.name ?? 'N/A');
        for (const entry of [...reconnectHandlers]) {
          const run = connectedBefore || entry.pending;
          entry.pending = false;
          if (run) entry.handler();
        }
        connectedBefore = true;
      });
      created.on('disconnect', (reason) => {
        transport.set('N/A');
        if (reason !== 'io server disconnect') return;
        // The server ended it: the session was revoked, or the instance is stopping (a deploy). socket.io-client does
        // not come back by itself after this, so the app asks: a revoked session is refused ('unauthorized' below),
        // a stopped instance's users reach another one (issue 29).
        onDropped?.();
        const delay = SOCKET_RECONNECT_DELAY_MS + Math.random() * (SOCKET_RECONNECT_DELAY_MAX_MS - SOCKET_RECONNECT_DELAY_MS);
        window.setTimeout(() => {
          if (socket === created && !created.connected) created.connect();
        }, delay);
      });
      // A refused handshake (revoked token) while we think we are signed in means the same.
      created.on('connect_error', (err) => {
        if (err.message === 'unauthorized') onDropped?.();
      });
      // SPEC §8: connect errors are only logged.
      created.on('connect_error', (err) => console.warn('socket connect error:', err.message));
      created.connect();
    },
    // A chunk that fails to load reloads the page (vite:preloadError in shell-effects); nothing else to do here.
    (err: unknown) => console.warn('socket client did not load:', err),
  );
}

export function disconnectSocket() {
  generation++;
  socket?.disconnect();
  socket = null;
  transport.set('N/A');
}

export const getSocket = () => socket;
