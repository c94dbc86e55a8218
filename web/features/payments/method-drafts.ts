import type { PaymentRates } from '#contract/payments';
import { kopecksToRubles } from '../../lib/money.ts';

// The ways to pay as the admin's settings edit them (setting payments.methods): fee in %, limits in rubles as
// typed, stored in kopecks. The editor (PaymentMethodsEditor in admin.tsx) shows these rows.

export type MethodDraft = { title: string; currency: string; fee: string; min: string; max: string };
export type MethodDrafts = Record<string, MethodDraft>;

/** Rubles as typed in kopecks; NaN for a blank field or no number. */
export const kopecksOf = (text: string): number => {
  const n = Number(text.replace(',', '.').trim());
  return text.trim() === '' || !Number.isFinite(n) ? Number.NaN : Math.round(n * 100);
};

/** The editor's rows from the stored methods. */
export const methodDrafts = (rates: PaymentRates): MethodDrafts =>
  Object.fromEntries(
    Object.entries(rates).map(([k, m]) => [k, { title: m.title, currency: m.currency, fee: String(m.fee), min: kopecksToRubles(m.min), max: kopecksToRubles(m.max) }]),
  );

/** The methods to store from the editor's rows, and the rows' own errors (keyed `payments.methods.<key>`). */
export function methodsFromDrafts(drafts: MethodDrafts): { rates: PaymentRates; errors: Record<string, string[]> } {
  const rates: PaymentRates = {};
  const errors: Record<string, string[]> = {};
  for (const [key, m] of Object.entries(drafts)) {
    const fee = Number(m.fee.replace(',', '.'));
    const min = kopecksOf(m.min);
    const max = kopecksOf(m.max);
    if (m.fee.trim() === '' || !Number.isFinite(fee) || Number.isNaN(min) || Number.isNaN(max)) errors[`payments.methods.${key}`] = ['Введите числа'];
    else if (min > max) errors[`payments.methods.${key}`] = ['Минимум больше максимума'];
    rates[key] = { title: m.title, currency: m.currency as 'RUB', fee, min, max };
  }
  return { rates, errors };
}
