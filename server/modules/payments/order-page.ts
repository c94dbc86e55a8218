import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { chatRefs } from '../chat/index.ts';
import { payments, type PaymentRow } from './schema.ts';
import { people, type UserRow } from '../users/index.ts';
import { balancesOf } from '../ledger/index.ts';
import type { OrderToPay } from '../orders/index.ts';
import type { Rates } from '#contract/api';
import { MAX_PRICE } from '#contract/catalog';
import { formatRubles } from '#contract/money-format';
import type { OrderPackage } from '#contract/orders';
import { PAYMENT_MESSAGES, type OrderPayMethod, type OrderPaymentPage, type PaymentRates } from '#contract/payments';
import type { PaymentContext } from './deps.ts';
import { paymentPolicy } from './policy.ts';
import { convert, limitProblem, paymentMethods } from './pricing.ts';

// An order's payment page: its summary, the customer's balance, and each way to pay with its amount and whether
// it can be used now (and why not).

const sellerOf = people('seller');
const orderChat = chatRefs('order_chat');

/** Paying from the balance: usable while the order awaits payment and the balance covers its price. */
function balanceMethod(order: OrderToPay, available: number): OrderPayMethod {
  return {
    method: 'balance',
    title: 'Баланс',
    currency: 'RUB',
    fee_percent: 0,
    fee: 0,
    amount: order.price,
    rate: null,
    min: 0,
    max: MAX_PRICE,
    usable: order.payRefusal === null && available >= order.price,
    reason: order.payRefusal ?? (available < order.price ? `Недостаточно средств: на балансе ${formatRubles(available)}` : null),
  };
}

/** The provider methods the operator set: the amount in each currency at the current rate, and what stops each. */
function providerMethods(deps: PaymentContext, order: OrderToPay, methods: PaymentRates, rates: Rates): OrderPayMethod[] {
  const list: OrderPayMethod[] = [];
  for (const [key, rate] of Object.entries(methods)) {
    if (key !== 'card' && key !== 'usdt' && key !== 'btc') continue;
    const perUnit = rate.currency === 'RUB' ? 1 : (rates[rate.currency] ?? 0);
    const { fee, amount } = convert(order.price, rate, perUnit);
    const reason = !deps.providers.forMethod(key)
      ? PAYMENT_MESSAGES.methodUnavailable
      : (order.payRefusal ?? (amount === null ? PAYMENT_MESSAGES.noRates : limitProblem(order.price, rate)));
    list.push({
      method: key,
      title: rate.title,
      currency: rate.currency,
      fee_percent: rate.fee,
      fee,
      amount,
      rate: rate.currency === 'RUB' ? null : perUnit > 0 ? perUnit : null,
      min: rate.min,
      max: rate.max,
      usable: reason === null,
      reason,
    });
  }
  return list;
}

/** The customer's latest payment of the order through a provider: a crypto quote left pending past its time is expired. */
async function lastPayment(deps: PaymentContext, order: OrderToPay, user: UserRow): Promise<OrderPaymentPage['last_payment']> {
  const [last] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.customerId, user.id), isNotNull(payments.providerRef)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  if (!last) return null;
  const lapsed = (p: PaymentRow) => p.status === 'pending' && p.quoteExpiresAt && p.quoteExpiresAt <= deps.clock.now();
  return { _id: last.id, method: last.method, status: lapsed(last) ? 'expired' : last.status, failure_reason: last.failureReason };
}

export async function orderPage(deps: PaymentContext, user: UserRow, orderId: string): Promise<OrderPaymentPage> {
  const order = paymentPolicy.authorize(user, 'pay', await deps.orders.find(deps.db, orderId));
  const [seller] = await deps.db.select({ id: sellerOf.id, name: sellerOf.name, surname: sellerOf.surname }).from(sellerOf).where(eq(sellerOf.id, order.sellerId));
  const { available } = await balancesOf(deps.db, user.id);
  const [methods, rates, quoteMinutes] = await Promise.all([paymentMethods(deps), deps.rates.get(), deps.settings.get('payments.quoteMinutes')]);
  const [chat] = await deps.db.select({ id: orderChat.id }).from(orderChat).where(eq(orderChat.orderId, order.id)).limit(1);
  return {
    order: {
      _id: order.id,
      number: order.number,
      title: order.title,
      package: order.package as OrderPackage | null,
      extras: order.extras,
      price: order.price,
      status: order.status,
      seller: { _id: order.sellerId, name: [seller?.name, seller?.surname].filter(Boolean).join(' ') },
    },
    balance: { available },
    methods: [balanceMethod(order, available), ...providerMethods(deps, order, methods, rates)],
    quote_minutes: quoteMinutes,
    chat_id: chat?.id ?? null,
    rates_updated_at: rates.lastUpdated,
    last_payment: await lastPayment(deps, order, user),
  };
}
