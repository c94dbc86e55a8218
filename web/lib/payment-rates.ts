import type { PaymentRates } from '#contract/payments';
import { api } from './api.ts';
import { createStore, useStore } from './store.ts';

// SPEC §4: on sign-in the payment rates are fetched (the ways to pay, keyed), kept for the payment page.
const rates = createStore<PaymentRates | null>(null);

let loading: Promise<void> | null = null;

/** Fetches the rates (one request at a time); never fails: silent, like the currency rates (the payment page asks again). */
export function loadPaymentRates(): Promise<void> {
  loading ??= api
    .read('payments.rates')
    .then((answer) => rates.set(answer.result))
    .catch(() => {})
    .finally(() => (loading = null));
  return loading;
}

/** The rates for a page that shows them at once (the order form's fees): those there, or the fetch under way. */
export const paymentRatesReady = (): Promise<void> => (rates.get() ? Promise.resolve() : loadPaymentRates());

export const usePaymentRates = () => useStore(rates);
