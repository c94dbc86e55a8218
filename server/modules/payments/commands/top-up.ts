import { payments } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError, badRequest } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { formatRubles } from '#contract/money-format';
import { PAYMENT_MESSAGES, TOP_UP_LIMITS, type PaymentRate, type TopUpInput, type TopUpMethod, type TopUpResult } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { topUpPolicy } from '../policy.ts';
import { convert, paymentMethods, providerMethod, rubPerUnit } from '../pricing.ts';
import type { PaymentProvider } from '../providers/provider.ts';
import type { ProviderMethod } from '../providers/registry.ts';
import { createAtProvider } from './pay-provider.ts';

// A top-up of the balance (ADR 062): a payment with no order, made at a provider like an order's. Its webhook
// credits the customer's balance (`payment:<id>`, webhook.ts), from which orders are then paid (pay-balance.ts).

const TOP_UP_METHODS: readonly ProviderMethod[] = ['card', 'usdt', 'btc'];
const CURRENCY = { card: 'RUB', usdt: 'USDT', btc: 'BTC' } as const;

/** A top-up's range by a method: the top-up's own limits narrowed by the method's (the operator's settings). */
function rangeOf(rate: Pick<PaymentRate, 'min' | 'max'>): { min: number; max: number } {
  return { min: Math.max(TOP_UP_LIMITS.min, rate.min), max: Math.min(TOP_UP_LIMITS.max, rate.max) };
}

/**
 * Whether a provider may take a top-up: not one that holds each payment in a safe deal for an order (ЮKassa's,
 * ADR 051: such money goes back to the card, never to the balance; a deal without a seller is not one).
 */
const takesTopUps = (provider: PaymentProvider | null): provider is PaymentProvider => provider !== null && !provider.safeDeal;

/** The ways to top up now, for the finance page's form (an empty list: the form is not shown). */
export async function topUpMethods(deps: PaymentContext): Promise<TopUpMethod[]> {
  const rates = await paymentMethods(deps);
  return TOP_UP_METHODS.flatMap((method) => {
    const rate = rates[method];
    if (!rate || !takesTopUps(deps.providers.forMethod(method))) return [];
    const { min, max } = rangeOf(rate);
    return min <= max ? [{ method: method as TopUpMethod['method'], title: rate.title, currency: rate.currency, fee_percent: rate.fee, min, max }] : [];
  });
}

/** Starts a top-up at the method's provider and answers its page (the Idempotency-Key is the service's). */
export async function topUp(deps: PaymentContext, user: UserRow, input: TopUpInput): Promise<TopUpResult> {
  topUpPolicy.authorize(user, 'topUp', user);
  const { rate, provider } = await providerMethod(deps, input.method);
  if (!takesTopUps(provider)) throw new HttpError(409, PAYMENT_MESSAGES.topUpCardInDeal);
  const { min, max } = rangeOf(rate);
  const problem = input.amount < min ? PAYMENT_MESSAGES.topUpBelowMin(formatRubles(min)) : input.amount > max ? PAYMENT_MESSAGES.topUpAboveMax(formatRubles(max)) : null;
  if (problem) throw badRequest(problem, { amount: [problem] });
  const perUnit = await rubPerUnit(deps, rate.currency);
  const { fee, amount } = convert(input.amount, rate, perUnit);
  if (amount === null) throw new HttpError(409, PAYMENT_MESSAGES.noRates);
  // A crypto amount holds for the quote's minutes, as an order's quote: money after them is still credited (late).
  const crypto = rate.currency !== 'RUB';
  const minutes = crypto ? await deps.settings.get('payments.quoteMinutes') : 0;
  const payment = await deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
    const now = clock.now();
    const [row] = await tx
      .insert(payments)
      .values({
        orderId: null,
        customerId: user.id,
        method: input.method,
        provider: provider.name,
        amount: input.amount,
        fee,
        currency: CURRENCY[input.method],
        currencyAmount: amount,
        rate: crypto ? String(perUnit) : null,
        quoteExpiresAt: crypto ? new Date(now.getTime() + minutes * 60_000) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  });
  const redirectUrl = await createAtProvider(deps, payment, null, true);
  return { payment_id: payment.id, status: 'pending', redirect_url: redirectUrl };
}
