import { useSyncExternalStore } from 'react';

// Whether the logout-confirmation modal is open (SPEC §2: shown to authenticated users).
let open = false;
const listeners = new Set<() => void>();
const set = (next: boolean) => {
  open = next;
  listeners.forEach((l) => l());
};

export const logoutModal = {
  open: () => set(true),
  close: () => set(false),
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

export const useLogoutModalOpen = () => useSyncExternalStore(logoutModal.subscribe, () => open, () => false);
