import { useSyncExternalStore } from 'react';
import type { PaymentRates } from '#contract/payments';
import { api } from '../../lib/api.ts';

// SPEC §4: on sign-in the payment rates are fetched (the ways to pay, keyed), kept for the payment page.
let rates: PaymentRates | null = null;
const listeners = new Set<() => void>();

export function loadPaymentRates() {
  api
    .read('payments.rates')
    .then((answer) => {
      rates = answer.result;
      listeners.forEach((l) => l());
    })
    .catch(() => {
      /* silent, like the currency rates: the payment page asks again */
    });
}

export const usePaymentRates = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    () => rates,
    () => null,
  );
