import { createStore, useStore, type Store } from '../../lib/store.ts';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import type { Notification } from '#contract/notifications';

// The signed-in person's unread notifications count (ADR 030): read when the header first shows it, kept live by
// the socket's `notifications` event (a new one, or a read mark in another tab). Made on first use: a module that
// imports this one without using it runs nothing, and a guest's pages never load it.

let store: Store<number> | null = null;
/** The list page's subscribers to new notifications (it shows them at the top). */
const arrivals = new Set<(n: Notification) => void>();
let offArrivals: (() => void) | null = null;

function unreadStore(): Store<number> {
  store ??= createStore(0, {
    start(s) {
      let alive = true;
      api.read('notifications.unread', {}, { fresh: true }).then(
        (answer) => alive && s.set(answer.result.unread),
        () => undefined,
      );
      const off = onSocketEvent('notifications', (payload) => s.set(payload.unread));
      return () => {
        alive = false;
        off();
      };
    },
  });
  return store;
}

/** The unread count (0 until known). */
export function useUnreadNotifications(): number {
  return useStore(unreadStore());
}

/** Sets the count here at once (a read mark answered); the server tells the other tabs. */
export function setUnreadNotifications(n: number): void {
  unreadStore().set(n);
}

/** Calls `fn` with each notification that arrives while subscribed. */
export function onNotification(fn: (n: Notification) => void): () => void {
  arrivals.add(fn);
  offArrivals ??= onSocketEvent('notifications', (payload) => {
    if (payload.notification) for (const f of [...arrivals]) f(payload.notification);
  });
  return () => {
    arrivals.delete(fn);
    if (arrivals.size === 0) {
      offArrivals?.();
      offArrivals = null;
    }
  };
}
