import { createStore, useStore } from '../../lib/store.ts';

// Whether the logout-confirmation modal is open (SPEC §2: shown to authenticated users).
const open = createStore(false);

export const logoutModal = {
  open: () => open.set(true),
  close: () => open.set(false),
  subscribe: open.subscribe,
};

export const useLogoutModalOpen = () => useStore(open);
