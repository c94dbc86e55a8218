import { useSyncExternalStore } from 'react';
import { DEFAULT_CURRENCY, STORAGE_KEYS, type Currency } from '#contract/constants';
import { isCurrency } from '../../lib/currency.ts';

// The selected currency (SPEC §3: kept locally, default RUB; the user's preference wins once signed in).

let current: Currency = DEFAULT_CURRENCY;
const listeners = new Set<() => void>();

export const currencyStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: () => current,
  getServer: () => DEFAULT_CURRENCY as Currency,
  set(next: Currency) {
    current = next;
    try {
      localStorage.setItem(STORAGE_KEYS.selectedCurrency, next);
    } catch {
      /* storage unavailable: keep it for this page only */
    }
    listeners.forEach((l) => l());
  },
  /** Reads the stored choice after hydration; a signed-in user's preference takes precedence. */
  restore(preferred?: string) {
    const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.selectedCurrency);
    const next = isCurrency(preferred) ? preferred : isCurrency(stored) ? stored : DEFAULT_CURRENCY;
    if (next !== current) {
      current = next;
      listeners.forEach((l) => l());
    }
  },
};

export const useCurrency = () => useSyncExternalStore(currencyStore.subscribe, currencyStore.get, currencyStore.getServer);
