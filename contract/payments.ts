import { z } from 'zod';

/** A way to pay (SPEC §7 `GET /api/payments/rates`: keyed entries; PRODUCT.md: currency, fee %, min and max). */
export const paymentRateSchema = z.object({
  title: z.string(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  /** Provider fee in percent, added to the amount paid. */
  fee: z.number(),
  /** Limits in kopecks of the order amount. */
  min: z.number().int(),
  max: z.number().int(),
});
export type PaymentRate = z.infer<typeof paymentRateSchema>;
export const paymentRatesSchema = z.record(z.string(), paymentRateSchema);
export type PaymentRates = z.infer<typeof paymentRatesSchema>;

/** Defaults until an operator changes them in the admin settings (payments issue). */
export const DEFAULT_PAYMENT_RATES: PaymentRates = {
  card: { title: 'Банковская карта', currency: 'RUB', fee: 0, min: 50_000, max: 60_000_000 },
  usdt: { title: 'USDT (TRC-20)', currency: 'USDT', fee: 1, min: 100_000, max: 100_000_000 },
  btc: { title: 'Bitcoin', currency: 'BTC', fee: 1.5, min: 300_000, max: 100_000_000 },
};
