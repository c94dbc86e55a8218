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

/**
 * The rates for a page that shows them at once (the order form's fees): those there, or the fetch under way, waited for
 * at most `maxWaitMs` (a stalled request must not hold the page back; the fees then appear when they come).
 */
export function paymentRatesReady(maxWaitMs: number): Promise<void> {
  if (rates.get()) return Promise.resolve();
  return Promise.race([loadPaymentRates(), new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
}

export const usePaymentRates = () => useStore(rates);
