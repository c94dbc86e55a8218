import { and, desc, eq } from 'drizzle-orm';
import { payments, type PaymentRow } from '../schema.ts';
import type { UserRow } from '../../users/schema.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { PAYMENT_MESSAGES, type CryptoMethod, type PayResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { quotePolicy } from '../policy.ts';
import { convert, providerMethod } from '../pricing.ts';
import { payable } from './payable.ts';

// Paying through a provider: the payment is made pending in our database, then on the provider's side, and the
// customer is sent to its confirmation page. The provider's webhook settles it (webhook.ts).

/** A card payment: a pending one of the same order and price is resumed rather than made twice. */
export async function payByCard(deps: PaymentContext, user: UserRow, orderId: string): Promise<PayResult> {
  const method = 'card';
  const { rate, provider } = await providerMethod(deps, method);
  const { payment, fresh } = await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId), rate);
    const [pending] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.customerId, user.id), eq(payments.method, method), eq(payments.status, 'pending'), eq(payments.amount, order.price)))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    if (pending) return { payment: pending, fresh: false };
    const { fee, amount } = convert(order.price, rate, 1);
    const now = clock.now();
    const [row] = await tx
      .insert(payments)
      .values({ orderId: order.id, customerId: user.id, method, provider: provider.name, amount: order.price, fee, currency: 'RUB', currencyAmount: amount!, createdAt: now, updatedAt: now })
      .returning();
    return { payment: row!, fresh: true };
  });
  return startWithProvider(deps, payment, fresh);
}

/** A crypto payment of a quote (quote.ts) still in time, for the same order, method and price. */
export async function payCrypto(deps: PaymentContext, user: UserRow, orderId: string, method: CryptoMethod, quoteId: string | undefined): Promise<PayResult> {
  if (!quoteId) throw badRequest(PAYMENT_MESSAGES.quoteRequired, { quote_id: [PAYMENT_MESSAGES.quoteRequired] });
  const { rate } = await providerMethod(deps, method);
  const now = deps.clock.now();
  const outcome = await deps.platform.withTx(userActor(user), async ({ tx }) => {
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId), rate);
    const [found] = await tx.select().from(payments).where(eq(payments.id, quoteId)).for('update');
    const quote = quotePolicy.authorize(user, 'use', found);
    if (quote.orderId !== order.id || quote.method !== method || quote.amount !== order.price) throw badRequest(PAYMENT_MESSAGES.quoteMismatch);
    if (quote.status === 'expired' || (quote.status === 'pending' && quote.quoteExpiresAt && quote.quoteExpiresAt <= now)) {
      if (quote.status === 'pending') await tx.update(payments).set({ status: 'expired', updatedAt: now }).where(eq(payments.id, quote.id));
      return 'expired' as const;
    }
    if (quote.status !== 'pending') throw new HttpError(409, PAYMENT_MESSAGES.notAwaitingPayment);
    return quote;
  });
  if (outcome === 'expired') throw new HttpError(409, PAYMENT_MESSAGES.quoteExpired);
  return startWithProvider(deps, outcome, outcome.providerRef === null);
}

/** Makes the payment on its provider's side (outside any transaction) and answers its confirmation page. */
async function startWithProvider(deps: PaymentContext, payment: PaymentRow, fresh: boolean): Promise<PayResult> {
  const provider = deps.providers.byName(payment.provider ?? '');
  if (!provider) throw new HttpError(409, PAYMENT_MESSAGES.methodUnavailable);
  const created = await provider.createPayment({ id: payment.id, orderId: payment.orderId, currency: payment.currency, currencyAmount: payment.currencyAmount });
  if (fresh || payment.providerRef !== created.providerRef) {
    await deps.db.update(payments).set({ providerRef: created.providerRef, updatedAt: deps.clock.now() }).where(eq(payments.id, payment.id));
  }
  return { payment_id: payment.id, order_id: payment.orderId, status: 'pending', redirect_url: created.redirectUrl };
}
