import type { PaymentRates } from '#contract/payments';
import { api } from './api.ts';
import { createStore, useStore } from './store.ts';

// SPEC §4: on sign-in the payment rates are fetched (the ways to pay, keyed), kept for the payment page.
const rates = createStore<PaymentRates | null>(null);

export function loadPaymentRates() {
  api
    .read('payments.rates')
    .then((answer) => rates.set(answer.result))
    .catch(() => {
      /* silent, like the currency rates: the payment page asks again */
    });
}

export const usePaymentRates = () => useStore(rates);
