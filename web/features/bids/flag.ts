import { createStore, useStore, type Store } from '../../lib/store.ts';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';

// The bids flag (SPEC §7 /api/notifications/bids/flag): new bids arrived on the customer's projects. Read when the
// signed-in header first shows it, kept live by the socket's bids_flag event. Made on first use: a module that
// imports this one without using it runs nothing.

let store: Store<boolean> | null = null;

function flagStore(): Store<boolean> {
  store ??= createStore(false, {
    start(s) {
      let alive = true;
      api.read('bids.flag', {}, { fresh: true }).then(
        (answer) => alive && s.set(answer.result.hasUnread),
        () => undefined,
      );
      const off = onSocketEvent('bids_flag', (payload) => s.set(payload.hasUnread));
      return () => {
        alive = false;
        off();
      };
    },
  });
  return store;
}

/** Whether the signed-in person has unread bids (false until known). */
export function useBidsFlag(): boolean {
  return useStore(flagStore());
}

/** The customer opened /profile/bids: the flag goes down here and on the server (which tells the other tabs). */
export async function clearBidsFlag(): Promise<void> {
  flagStore().set(false);
  await api.write('bids.clearFlag');
}
