import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { payments, type PaymentRow } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { PAYMENT_MESSAGES, TOP_UP_TITLE, type CryptoMethod, type PayResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { quotePolicy } from '../policy.ts';
import { convert, providerMethod } from '../pricing.ts';
import { payable } from './payable.ts';
import { commissionOn } from '#contract/money';
import type { OrderToPay } from '../../orders/index.ts';
import { paymentReturnPath, ProviderUnavailable, type CreatedPayment, type ProviderPayment } from '../providers/provider.ts';

// Paying through a provider: the payment is made pending in our database, then on the provider's side, and the
// customer is sent to its confirmation page. The provider's webhook settles it (webhook.ts).

/** A card payment: a pending one of the same order and price is resumed rather than made twice. */
export async function payByCard(deps: PaymentContext, user: UserRow, orderId: string): Promise<PayResult> {
  const method = 'card';
  const { rate, provider } = await providerMethod(deps, method);
  const { payment, fresh, order } = await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const order = payable(user, await deps.orders.lockForPayment(tx, orderId), rate);
    const [pending] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.customerId, user.id), eq(payments.method, method), eq(payments.status, 'pending'), eq(payments.amount, order.price)))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    if (pending) return { payment: pending, fresh: false, order };
    const { fee, amount } = convert(order.price, rate, 1);
    const now = clock.now();
    const [row] = await tx
      .insert(payments)
      .values({ orderId: order.id, customerId: user.id, method, provider: provider.name, amount: order.price, fee, currency: 'RUB', currencyAmount: amount!, createdAt: now, updatedAt: now })
      .returning();
    return { payment: row!, fresh: true, order };
  });
  return startWithProvider(deps, payment, order, fresh);
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
    return { quote, order };
  });
  if (outcome === 'expired') throw new HttpError(409, PAYMENT_MESSAGES.quoteExpired);
  return startWithProvider(deps, outcome.quote, outcome.order, outcome.quote.providerRef === null);
}

/**
 * What a provider is told of a payment (its description, the seller's share, where the customer returns). A top-up
 * (no order, ADR 062) says so, has no seller, and returns to the finance page.
 */
export function providerPayment(deps: Pick<PaymentContext, 'siteUrl'>, payment: PaymentRow, order: Pick<OrderToPay, 'number' | 'title' | 'price' | 'commissionBp'> | null): ProviderPayment {
  return {
    id: payment.id,
    orderId: payment.orderId,
    description: (order ? `Заказ №${order.number}: ${order.title}` : TOP_UP_TITLE).slice(0, 128),
    currency: payment.currency,
    currencyAmount: payment.currencyAmount,
    sellerShare: order ? order.price - commissionOn(order.price, order.commissionBp) : 0,
    returnUrl: `${deps.siteUrl()}${paymentReturnPath(payment)}`,
  };
}

/** Makes the payment on its provider's side (outside any transaction) and answers its confirmation page. */
async function startWithProvider(deps: PaymentContext, payment: PaymentRow, order: OrderToPay, fresh: boolean): Promise<PayResult> {
  const redirectUrl = await createAtProvider(deps, payment, order, fresh);
  return { payment_id: payment.id, order_id: order.id, status: 'pending', redirect_url: redirectUrl };
}

/** Makes the payment (an order's, or a top-up's without an order) at its provider, notes its ids, answers its page. */
export async function createAtProvider(deps: PaymentContext, payment: PaymentRow, order: OrderToPay | null, fresh: boolean): Promise<string> {
  const provider = deps.providers.byName(payment.provider ?? '');
  if (!provider) throw new HttpError(409, PAYMENT_MESSAGES.methodUnavailable);
  let created;
  try {
    created = await provider.createPayment(providerPayment(deps, payment, order));
  } catch (error) {
    if (error instanceof ProviderUnavailable) {
      deps.log.warn({ err: error, payment: payment.id }, 'payment provider unavailable');
      throw new HttpError(503, PAYMENT_MESSAGES.providerUnavailable);
    }
    // A refusal (a 4xx: the shop's settings, a limit): the operator's to see, the customer's to go round.
    deps.log.error({ err: error, payment: payment.id, provider: provider.name }, 'payment provider refused the payment');
    throw new HttpError(502, PAYMENT_MESSAGES.providerRefused);
  }
  if (fresh || payment.providerRef !== created.providerRef) await recordCreated(deps, payment, created);
  return created.redirectUrl;
}

/**
 * Notes the provider's ids of a payment it made (its webhooks and the poll find it by them). The first id noted
 * stays: were a race to make a second one at the provider (the poll and the customer's own call at once), its
 * notifications name no payment of ours and reconciliation shows it, instead of the first one's money going unseen.
 */
export async function recordCreated(deps: Pick<PaymentContext, 'db' | 'clock' | 'log'>, payment: PaymentRow, created: CreatedPayment) {
  const noted = await deps.db
    .update(payments)
    .set({ providerRef: created.providerRef, providerDealRef: created.dealRef ?? null, dealExpiresAt: created.dealExpiresAt ?? null, updatedAt: deps.clock.now() })
    .where(and(eq(payments.id, payment.id), or(isNull(payments.providerRef), eq(payments.providerRef, created.providerRef))))
    .returning({ id: payments.id });
  if (!noted.length) deps.log.error({ payment: payment.id, second: created.providerRef }, 'a second payment at the provider for one of ours: left to reconciliation');
}
