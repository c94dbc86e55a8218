import type { UserRow } from '../../users/index.ts';
import { payments } from '../schema.ts';
import { HttpError } from '../../../lib/http.ts';
import { PAYMENT_MESSAGES, type CryptoMethod, type Quote } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { presentQuote } from '../presenter.ts';
import { convert, providerMethod, rubPerUnit } from '../pricing.ts';
import { payable } from './payable.ts';

const CRYPTO_CURRENCY = { usdt: 'USDT', btc: 'BTC' } as const;

/** A crypto quote: a pending payment with the rate and the amount, held for payments.quoteMinutes. */
export async function quote(deps: PaymentContext, user: UserRow, input: { order_id: string; method: CryptoMethod }): Promise<Quote> {
  const { rate, provider } = await providerMethod(deps, input.method);
  const order = payable(user, await deps.orders.find(deps.db, input.order_id), rate);
  const perUnit = await rubPerUnit(deps, rate.currency);
  const { fee, amount } = convert(order.price, rate, perUnit);
  if (amount === null) throw new HttpError(409, PAYMENT_MESSAGES.noRates);
  const minutes = await deps.settings.get('payments.quoteMinutes');
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(payments)
    .values({
      orderId: order.id,
      customerId: user.id,
      method: input.method,
      provider: provider.name,
      amount: order.price,
      fee,
      currency: CRYPTO_CURRENCY[input.method],
      currencyAmount: amount,
      rate: String(perUnit),
      quoteExpiresAt: new Date(now.getTime() + minutes * 60_000),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return presentQuote(row!);
}
