import { z } from 'zod';
import { MAX_PRICE } from './catalog.ts';

/** A way to pay (SPEC §7 `GET /api/payments/rates`: keyed entries; PRODUCT.md: currency, fee %, min and max). */
export const paymentRateSchema = z.object({
  title: z.string(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  /** Provider fee in percent, added to the amount paid. */
  fee: z.number().min(0, 'Комиссия не может быть отрицательной').max(100, 'Комиссия — не больше 100 %'),
  /** Limits in kopecks of the order amount (an order costs at most MAX_PRICE). */
  min: z.number().int('Сумма — целое число копеек').min(0, 'Сумма не может быть отрицательной').max(MAX_PRICE, 'Слишком большая сумма'),
  max: z.number().int('Сумма — целое число копеек').min(0, 'Сумма не может быть отрицательной').max(MAX_PRICE, 'Слишком большая сумма'),
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
