import { DEFAULT_CURRENCY, STORAGE_KEYS, type Currency } from '#contract/constants';
import { isCurrency } from './currency.ts';
import { createStore, useStore } from './store.ts';

// The selected currency (SPEC §3: kept locally, default RUB; the user's preference wins once signed in).

const current = createStore<Currency>(DEFAULT_CURRENCY);

export const currencyStore = {
  subscribe: current.subscribe,
  get: current.get,
  getServer: current.getServerSnapshot,
  set(next: Currency) {
    current.set(next);
    try {
      localStorage.setItem(STORAGE_KEYS.selectedCurrency, next);
    } catch {
      /* storage unavailable: keep it for this page only */
    }
  },
  /** Reads the stored choice after hydration; a signed-in user's preference takes precedence. */
  restore(preferred?: string) {
    const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.selectedCurrency);
    current.set(isCurrency(preferred) ? preferred : isCurrency(stored) ? stored : DEFAULT_CURRENCY);
  },
};

export const useCurrency = () => useStore(current);
