import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransfers, orders, payments, webhookEvents, withdrawals, type OrderRow, type PaymentRow } from '../../db/schema/money.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { chats } from '../../db/schema/chat.ts';
import { HttpError, badRequest, notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { Clock } from '../../platform/clock.ts';
import { systemActor, userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { Idempotency } from '../../platform/idempotency.ts';
import type { TxContext } from '../../platform/tx.ts';
import { cursorPosition, decodeCursor, keysetAfter, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import type { RatesService } from '../rates/index.ts';
import type { OrderService } from '../orders/index.ts';
import { balancesOf, balanceOf, postTransfer, requireBalance } from '../ledger/index.ts';
import { paymentPolicy } from './policy.ts';
import { presentPayment, presentWithdrawal, type PaymentRecord } from './presenter.ts';
import { SANDBOX, SandboxProvider } from './providers/sandbox.ts';
import type { PaymentProvider } from './providers/provider.ts';
import {
  PAYMENT_MESSAGES,
  normaliseDestination,
  rubles,
  type FinanceBalance,
  type CryptoMethod,
  type FinanceEntry,
  type OrderPayMethod,
  type OrderPaymentPage,
  type PayInput,
  type PayResult,
  type Payment,
  type PaymentRate,
  type PaymentRates,
  type Quote,
  type Withdrawal,
  type WithdrawalInput,
} from '#contract/payments';
import { MAX_PRICE } from '#contract/catalog';
import type { PaymentStatus, WithdrawalStatus } from '#contract/money';

export interface PaymentServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  rates: RatesService;
  orders: OrderService;
  /** The public origin, for the sandbox provider's pages and webhook. */
  siteUrl: () => string;
  /** This server's own address: the sandbox sends its webhook there (the HTTP loopback). */
  loopbackUrl?: () => string;
  /** The providers' webhook signing secret (env PAYMENTS_WEBHOOK_SECRET or DATA_DIR/payments-webhook-secret). */
  webhookSecret: string;
  /** The sandbox provider is on (development, tests, the demo, or a production that chose it: env.ts). */
  sandbox?: boolean;
  log: Logger;
}

/** The outbox job by which the sandbox provider sends its signed webhook (retried with backoff until 2xx). */
export const SANDBOX_WEBHOOK_JOB = 'payments.sandboxWebhook';

interface SandboxWebhookJob {
  paymentId: string;
  providerRef: string;
  eventId: string;
  outcome: 'pay' | 'decline';
  currency: PaymentRow['currency'];
  amount: number;
}

/** Sends a webhook and answers the HTTP status (the sandbox's way to reach us; tests may swap it). */
export type WebhookTransport = (path: string, body: string, headers: Record<string, string>) => Promise<number>;

const CRYPTO_CURRENCY = { usdt: 'USDT', btc: 'BTC' } as const;
const PAGE_KEYS = [
  { expr: payments.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: payments.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];
const WITHDRAWAL_KEYS = [
  { expr: withdrawals.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: withdrawals.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];

/** The fee and what the customer pays in the method's currency (minor units), or null without a rate. */
export function convert(priceKopecks: number, rate: PaymentRate, rubPerUnit: number): { fee: number; amount: number | null } {
  const fee = Math.round((priceKopecks * rate.fee) / 100);
  const total = priceKopecks + fee;
  if (rate.currency === 'RUB') return { fee, amount: total };
  if (!(rubPerUnit > 0)) return { fee, amount: null };
  if (rate.currency === 'USDT') return { fee, amount: Math.ceil(total / rubPerUnit - 1e-9) };
  // BTC is shown with 7 decimals (SPEC §9): rounded up to 10 satoshi, so the shown amount is exactly what is due.
  return { fee, amount: Math.ceil((total * 100_000) / rubPerUnit - 1e-9) * 10 };
}

function limitProblem(price: number, rate: Pick<PaymentRate, 'min' | 'max'>): string | null {
  if (price < rate.min) return PAYMENT_MESSAGES.belowMin(rubles(rate.min));
  if (price > rate.max) return PAYMENT_MESSAGES.aboveMax(rubles(rate.max));
  return null;
}

/** Paying orders into escrow, providers and their webhooks, balances, withdrawals (ADR 025, 026). */
export class PaymentService {
  /** The time quotes are made and checked by (tests move it). */
  clock: Clock;
  readonly idempotency: Idempotency;
  readonly sandbox: SandboxProvider;
  private readonly providers = new Map<string, PaymentProvider>();
  webhookTransport: WebhookTransport;

  constructor(private readonly deps: PaymentServiceDeps) {
    this.clock = deps.platform.clock;
    this.idempotency = new Idempotency(deps.db, deps.platform.clock);
    this.sandbox = new SandboxProvider(() => deps.webhookSecret, { now: () => this.clock.now() });
    this.providers.set(SANDBOX, this.sandbox);
    this.webhookTransport = async (path, body, headers) => {
      const base = (deps.loopbackUrl ?? deps.siteUrl)();
      const res = await fetch(`${base}${path}`, { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      return res.status;
    };
    deps.platform.dispatcher.handle<SandboxWebhookJob>(SANDBOX_WEBHOOK_JOB, (job) => this.sendSandboxWebhook(job));
  }

  /**
   * The provider payments through card, USDT and BTC go to: the sandbox until a real one is configured, and none
   * in a production that did not choose the sandbox (it confirms payments no one made).
   */
  private get provider(): PaymentProvider {
    if (!this.providerOn) throw new HttpError(409, PAYMENT_MESSAGES.methodUnavailable);
    return this.sandbox;
  }

  private get providerOn(): boolean {
    return this.deps.sandbox !== false;
  }

  // -------------------------------------------------------------------------------------------------------
  // The ways to pay and the payment page
  // -------------------------------------------------------------------------------------------------------

  methods(): Promise<PaymentRates> {
    return this.deps.settings.get('payments.methods');
  }

  private async orderOf(db: Db, orderId: string, { lock = false } = {}): Promise<OrderRow | null> {
    if (!isUuid(orderId)) return null;
    const query = db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    const [row] = lock ? await query.for('update') : await query;
    return row ?? null;
  }

  private async rubPerUnit(currency: PaymentRate['currency']): Promise<number> {
    if (currency === 'RUB') return 1;
    const rates = await this.deps.rates.get();
    return rates[currency] ?? 0;
  }

  async orderPage(user: UserRow, orderId: string): Promise<OrderPaymentPage> {
    const order = paymentPolicy.authorize(user, 'pay', await this.orderOf(this.deps.db, orderId));
    const [seller] = await this.deps.db.select({ id: users.id, name: users.name, surname: users.surname }).from(users).where(eq(users.id, order.sellerId));
    const { available } = await balancesOf(this.deps.db, user.id);
    const [methods, rates, quoteMinutes] = await Promise.all([this.methods(), this.deps.rates.get(), this.deps.settings.get('payments.quoteMinutes')]);
    const awaiting = order.status === 'awaiting_payment';
    const list: OrderPayMethod[] = [
      {
        method: 'balance',
        title: 'Баланс',
        currency: 'RUB',
        fee_percent: 0,
        fee: 0,
        amount: order.price,
        rate: null,
        min: 0,
        max: MAX_PRICE,
        usable: awaiting && available >= order.price,
        reason: !awaiting ? PAYMENT_MESSAGES.notAwaitingPayment : available < order.price ? `Недостаточно средств: на балансе ${rubles(available)}` : null,
      },
    ];
    for (const [key, rate] of Object.entries(methods)) {
      if (key !== 'card' && key !== 'usdt' && key !== 'btc') continue;
      const perUnit = rate.currency === 'RUB' ? 1 : (rates[rate.currency] ?? 0);
      const { fee, amount } = convert(order.price, rate, perUnit);
      const reason = !this.providerOn
        ? PAYMENT_MESSAGES.methodUnavailable
        : !awaiting
          ? PAYMENT_MESSAGES.notAwaitingPayment
          : amount === null
            ? PAYMENT_MESSAGES.noRates
            : limitProblem(order.price, rate);
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
    const [chat] = await this.deps.db.select({ id: chats.id }).from(chats).where(eq(chats.orderId, order.id)).limit(1);
    const [last] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.customerId, user.id), isNotNull(payments.providerRef)))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    return {
      order: {
        _id: order.id,
        number: order.number,
        title: order.title,
        price: order.price,
        status: order.status,
        seller: { _id: order.sellerId, name: [seller?.name, seller?.surname].filter(Boolean).join(' ') },
      },
      balance: { available },
      methods: list,
      quote_minutes: quoteMinutes,
      chat_id: chat?.id ?? null,
      rates_updated_at: rates.lastUpdated,
      last_payment: last ? { _id: last.id, method: last.method, status: last.status, failure_reason: last.failureReason } : null,
    };
  }

  /** The checks every way of paying makes: the customer's own order, awaiting payment, within the method's limits. */
  private payable(user: UserRow, order: OrderRow | null, rate?: PaymentRate): OrderRow {
    const found = paymentPolicy.authorize(user, 'pay', order);
    if (found.status !== 'awaiting_payment') throw new HttpError(409, PAYMENT_MESSAGES.notAwaitingPayment);
    if (rate) {
      const problem = limitProblem(found.price, rate);
      if (problem) throw badRequest(problem);
    }
    return found;
  }

  private async rateOf(method: 'card' | CryptoMethod): Promise<PaymentRate> {
    if (!this.providerOn) throw new HttpError(409, PAYMENT_MESSAGES.methodUnavailable);
    const rate = (await this.methods())[method];
    if (!rate) throw badRequest(PAYMENT_MESSAGES.methodUnavailable);
    return rate;
  }

  // -------------------------------------------------------------------------------------------------------
  // Quotes and paying
  // -------------------------------------------------------------------------------------------------------

  /** A crypto quote: a pending payment with the rate and the amount, held for payments.quoteMinutes. */
  async quote(user: UserRow, input: { order_id: string; method: CryptoMethod }): Promise<Quote> {
    const rate = await this.rateOf(input.method);
    const order = this.payable(user, await this.orderOf(this.deps.db, input.order_id), rate);
    const perUnit = await this.rubPerUnit(rate.currency);
    const { fee, amount } = convert(order.price, rate, perUnit);
    if (amount === null) throw new HttpError(409, PAYMENT_MESSAGES.noRates);
    const minutes = await this.deps.settings.get('payments.quoteMinutes');
    const now = this.clock.now();
    const [row] = await this.deps.db
      .insert(payments)
      .values({
        orderId: order.id,
        customerId: user.id,
        method: input.method,
        provider: this.provider.name,
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
    return this.presentQuote(row!);
  }

  private presentQuote(p: PaymentRow): Quote {
    return {
      _id: p.id,
      order_id: p.orderId,
      method: p.method as CryptoMethod,
      currency: p.currency as 'USDT' | 'BTC',
      amount: p.amount,
      fee: p.fee,
      currency_amount: p.currencyAmount,
      rate: Number(p.rate),
      quote_expires_at: p.quoteExpiresAt!.toISOString(),
    };
  }

  /**
   * POST /api/payments/pay behind its Idempotency-Key: the first answer to (user, key) is stored and given again.
   * Answers the status and body to send.
   */
  payIdempotent(user: UserRow, key: string, input: PayInput) {
    return this.idempotency.run(user.id, key, 'payments.pay', input, () => this.pay(user, input));
  }

  /** Pays from the balance at once, or starts (or resumes) a provider payment and answers its page. */
  async pay(user: UserRow, input: PayInput): Promise<PayResult> {
    if (input.method === 'balance') return this.payFromBalance(user, input.order_id);
    if (input.method === 'card') return this.payThroughProvider(user, input.order_id, 'card');
    return this.payCrypto(user, input.order_id, input.method, input.quote_id);
  }

  private async payFromBalance(user: UserRow, orderId: string): Promise<PayResult> {
    return this.deps.platform.withTx(userActor(user), async (ctx) => {
      const { tx } = ctx;
      // The order's row lock first, then the account's (requireBalance): every payer takes them in this order.
      const order = this.payable(user, await this.orderOf(tx, orderId, { lock: true }));
      await requireBalance(tx, { kind: 'available', userId: user.id }, order.price);
      const now = ctx.clock.now();
      const [payment] = await tx
        .insert(payments)
        .values({ orderId: order.id, customerId: user.id, method: 'balance', status: 'succeeded', amount: order.price, currency: 'RUB', currencyAmount: order.price, paidAt: now, createdAt: now, updatedAt: now })
        .returning();
      await this.escrow(ctx, order, user.id);
      return { payment_id: payment!.id, order_id: order.id, status: 'succeeded' as const, redirect_url: null };
    });
  }

  /**
   * The order's awaiting_payment → in_progress and available:customer → escrow:order, in the caller's
   * transaction. The ledger comes last: its entries take the chain's one lock, held until the commit (ADR 025).
   */
  private async escrow(ctx: TxContext, order: OrderRow, customerId: string): Promise<void> {
    await this.deps.orders.markPaid(ctx, order.id);
    await this.escrowTransfer(ctx, order, customerId);
  }

  /** available:customer → escrow:order (`escrow:<order>`: once, whatever races). */
  private async escrowTransfer(ctx: TxContext, order: OrderRow, customerId: string): Promise<void> {
    const posted = await postTransfer(ctx.tx, {
      kind: 'escrow',
      key: `escrow:${order.id}`,
      orderId: order.id,
      description: `Оплата заказа №${order.number}`,
      legs: [
        { account: { kind: 'available', userId: customerId }, amount: -order.price },
        { account: { kind: 'escrow', orderId: order.id }, amount: order.price },
      ],
    });
    if (!posted) throw new HttpError(409, PAYMENT_MESSAGES.notAwaitingPayment);
  }

  private async payThroughProvider(user: UserRow, orderId: string, method: 'card'): Promise<PayResult> {
    const rate = await this.rateOf(method);
    const { payment, fresh } = await this.deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
      const order = this.payable(user, await this.orderOf(tx, orderId, { lock: true }), rate);
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
        .values({ orderId: order.id, customerId: user.id, method, provider: this.provider.name, amount: order.price, fee, currency: 'RUB', currencyAmount: amount!, createdAt: now, updatedAt: now })
        .returning();
      return { payment: row!, fresh: true };
    });
    return this.startWithProvider(payment, fresh);
  }

  private async payCrypto(user: UserRow, orderId: string, method: CryptoMethod, quoteId: string | undefined): Promise<PayResult> {
    if (!quoteId) throw badRequest(PAYMENT_MESSAGES.quoteRequired, { quote_id: [PAYMENT_MESSAGES.quoteRequired] });
    const rate = await this.rateOf(method);
    const now = this.clock.now();
    const outcome = await this.deps.platform.withTx(userActor(user), async ({ tx }) => {
      const order = this.payable(user, await this.orderOf(tx, orderId, { lock: true }), rate);
      const [quote] = await tx.select().from(payments).where(eq(payments.id, quoteId)).for('update');
      if (!quote || quote.customerId !== user.id) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
      if (quote.orderId !== order.id || quote.method !== method || quote.amount !== order.price) throw badRequest(PAYMENT_MESSAGES.quoteMismatch);
      if (quote.status === 'expired' || (quote.status === 'pending' && quote.quoteExpiresAt && quote.quoteExpiresAt <= now)) {
        if (quote.status === 'pending') await tx.update(payments).set({ status: 'expired', updatedAt: now }).where(eq(payments.id, quote.id));
        return 'expired' as const;
      }
      if (quote.status !== 'pending') throw new HttpError(409, PAYMENT_MESSAGES.notAwaitingPayment);
      return quote;
    });
    if (outcome === 'expired') throw new HttpError(409, PAYMENT_MESSAGES.quoteExpired);
    return this.startWithProvider(outcome, outcome.providerRef === null);
  }

  /** Makes the payment on the provider's side (outside any transaction) and answers its confirmation page. */
  private async startWithProvider(payment: PaymentRow, fresh: boolean): Promise<PayResult> {
    const created = await this.provider.createPayment({ id: payment.id, orderId: payment.orderId, currency: payment.currency, currencyAmount: payment.currencyAmount });
    if (fresh || payment.providerRef !== created.providerRef) {
      await this.deps.db.update(payments).set({ providerRef: created.providerRef, updatedAt: this.clock.now() }).where(eq(payments.id, payment.id));
    }
    return { payment_id: payment.id, order_id: payment.orderId, status: 'pending', redirect_url: created.redirectUrl };
  }

  // -------------------------------------------------------------------------------------------------------
  // Webhooks
  // -------------------------------------------------------------------------------------------------------

  /**
   * A provider's webhook: verified (signature and freshness), recorded by its event id (a replay changes
   * nothing), then applied in one transaction. A success credits the customer (`payment:<payment>`) and, when
   * the order still awaits payment, pays it into escrow; otherwise the money stays on the balance.
   */
  async webhook(providerName: string, rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<{ received: boolean; duplicate: boolean }> {
    const provider = this.providers.get(providerName);
    if (!provider || (provider === this.sandbox && !this.providerOn)) throw notFound();
    const event = provider.verifyWebhook(rawBody, headers);
    if (!event) throw badRequest('Подпись вебхука не подтверждена');
    return this.deps.platform.withTx(systemActor(`payments.webhook.${providerName}`), async (ctx) => {
      const { tx } = ctx;
      const fresh = await tx
        .insert(webhookEvents)
        .values({ provider: providerName, eventId: event.id, payload: event })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.eventId });
      if (!fresh.length) return { received: true, duplicate: true };
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.provider, providerName), eq(payments.providerRef, event.payment_ref)))
        .for('update');
      if (!payment) {
        this.deps.log.warn({ provider: providerName, event: event.id }, 'webhook for an unknown payment: ignored');
        return { received: true, duplicate: false };
      }
      if (payment.status !== 'pending') return { received: true, duplicate: false };
      if (event.currency !== payment.currency || event.amount !== payment.currencyAmount) {
        this.deps.log.warn({ payment: payment.id, event }, 'webhook amount differs from the payment: ignored');
        return { received: true, duplicate: false };
      }
      const now = ctx.clock.now();
      if (event.type === 'payment.failed') {
        await tx.update(payments).set({ status: 'failed', failureReason: PAYMENT_MESSAGES.declined, updatedAt: now }).where(eq(payments.id, payment.id));
        return { received: true, duplicate: false };
      }
      const order = (await this.orderOf(tx, payment.orderId, { lock: true }))!;
      // Paid otherwise meanwhile (from the balance, another payment): the money stays the customer's.
      const paysOrder = order.status === 'awaiting_payment' && order.price === payment.amount;
      if (paysOrder) await this.deps.orders.markPaid(ctx, order.id);
      await tx
        .update(payments)
        .set(paysOrder ? { status: 'succeeded', paidAt: now, updatedAt: now } : { status: 'credited', paidAt: now, failureReason: PAYMENT_MESSAGES.creditedToBalance, updatedAt: now })
        .where(eq(payments.id, payment.id));
      // Last: the ledger's entries take the chain's one lock, held until the commit (ADR 025).
      await postTransfer(tx, {
        kind: 'payment',
        key: `payment:${payment.id}`,
        orderId: order.id,
        description: `Платёж (${payment.method}) за заказ №${order.number}`,
        legs: [
          { account: { kind: 'external', method: payment.method as 'card' | 'usdt' | 'btc' }, amount: -payment.amount },
          { account: { kind: 'available', userId: payment.customerId }, amount: payment.amount },
        ],
      });
      if (paysOrder) await this.escrowTransfer(ctx, order, payment.customerId);
      return { received: true, duplicate: false };
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // The sandbox provider's confirmation page
  // -------------------------------------------------------------------------------------------------------

  private async sandboxPayment(paymentId: string): Promise<PaymentRow> {
    if (!this.providerOn || !isUuid(paymentId)) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const [payment] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.provider, SANDBOX), isNotNull(payments.providerRef)));
    if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return payment;
  }

  private returnUrl = (p: PaymentRow) => `/payments/${p.orderId}?payment=${p.id}`;

  async sandboxPage(paymentId: string) {
    const payment = await this.sandboxPayment(paymentId);
    const [order] = await this.deps.db.select({ id: orders.id, number: orders.number, title: orders.title }).from(orders).where(eq(orders.id, payment.orderId));
    const expired = payment.status === 'pending' && payment.quoteExpiresAt !== null && payment.quoteExpiresAt <= this.clock.now();
    return {
      _id: payment.id,
      status: expired ? 'expired' : payment.status,
      currency: payment.currency,
      currency_amount: payment.currencyAmount,
      order: { _id: order!.id, number: order!.number, title: order!.title },
      return_url: this.returnUrl(payment),
    };
  }

  /** "Оплатить" or "Отклонить" on the sandbox page: the sandbox sends its webhook (an outbox job, retried). */
  async sandboxDecide(paymentId: string, decision: 'pay' | 'decline'): Promise<{ return_url: string }> {
    const payment = await this.sandboxPayment(paymentId);
    if (payment.status === 'pending' && payment.quoteExpiresAt && payment.quoteExpiresAt <= this.clock.now()) {
      throw new HttpError(409, PAYMENT_MESSAGES.quoteExpired);
    }
    if (payment.status === 'pending') {
      await this.deps.platform.withTx(systemActor('payments.sandbox'), async ({ outbox }) => {
        const job: SandboxWebhookJob = {
          paymentId: payment.id,
          providerRef: payment.providerRef!,
          eventId: `evt_${randomUUID()}`,
          outcome: decision,
          currency: payment.currency,
          amount: payment.currencyAmount,
        };
        outbox.job(SANDBOX_WEBHOOK_JOB, job, { dedupeKey: `sandbox:${payment.id}` });
      });
    }
    return { return_url: this.returnUrl(payment) };
  }

  /** The job: the signed event to our webhook endpoint over HTTP; a non-2xx answer is retried with backoff. */
  async sendSandboxWebhook(job: SandboxWebhookJob): Promise<void> {
    const { body, headers } = this.sandbox.event({ eventId: job.eventId, providerRef: job.providerRef, outcome: job.outcome, currency: job.currency, amount: job.amount });
    const status = await this.webhookTransport(`/api/payments/webhooks/${SANDBOX}`, body, headers);
    if (status < 200 || status >= 300) throw new Error(`sandbox webhook answered ${status}`);
  }

  // -------------------------------------------------------------------------------------------------------
  // Lists: payments, finance entries, withdrawals
  // -------------------------------------------------------------------------------------------------------

  private async paymentPage(where: SQL | undefined, query: { cursor?: string; limit: number }, withCustomer: boolean): Promise<{ result: Payment[]; next: string | null }> {
    const after = query.cursor ? keysetAfter(PAGE_KEYS, cursorPosition(query.cursor, 'payments', PAGE_KEYS)) : undefined;
    const rows = await this.deps.db
      .select({
        payment: payments,
        order: { id: orders.id, number: orders.number, title: orders.title },
        customer: { id: users.id, name: users.name, email: users.email },
        createdKey: timestampKey(payments.createdAt),
      })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(users, eq(users.id, payments.customerId))
      .where(and(where, after))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => ['payments', r.createdKey, r.payment.id]);
    const now = this.clock.now();
    return { result: kept.map((r: PaymentRecord) => presentPayment(withCustomer ? r : { ...r, customer: undefined }, now)), next };
  }

  myPayments(user: UserRow, query: { cursor?: string; limit: number }) {
    return this.paymentPage(eq(payments.customerId, user.id), query, false);
  }

  adminPayments(query: { cursor?: string; limit: number; status?: PaymentStatus; method?: PaymentRow['method'] }) {
    return this.paymentPage(
      and(query.status ? eq(payments.status, query.status) : undefined, query.method ? eq(payments.method, query.method) : undefined),
      query,
      true,
    );
  }

  async balance(user: UserRow): Promise<FinanceBalance> {
    return { ...(await balancesOf(this.deps.db, user.id)), min_withdrawal: await this.deps.settings.get('withdrawals.minAmount') };
  }

  /** The person's entries on their available and held balances, newest first (keyset by the chain's seq). */
  async entries(user: UserRow, query: { cursor?: string; limit: number }): Promise<{ result: FinanceEntry[]; next: string | null }> {
    const before = query.cursor ? Number(decodeCursor(query.cursor, ['text', 'int8'])[1]) : null;
    const rows = await this.deps.db
      .select({
        seq: ledgerEntries.seq,
        amount: ledgerEntries.amount,
        balanceAfter: ledgerEntries.balanceAfter,
        createdAt: ledgerEntries.createdAt,
        account: ledgerAccounts.kind,
        kind: ledgerTransfers.kind,
        order: { id: orders.id, number: orders.number, title: orders.title },
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
      .leftJoin(orders, eq(orders.id, ledgerTransfers.orderId))
      .where(
        and(
          eq(ledgerAccounts.userId, user.id),
          inArray(ledgerAccounts.kind, ['available', 'withdrawal_hold']),
          before !== null ? sql`${ledgerEntries.seq} < ${before}` : undefined,
        ),
      )
      .orderBy(desc(ledgerEntries.seq))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => ['entries', r.seq]);
    return {
      result: kept.map((r) => ({
        seq: r.seq,
        kind: r.kind,
        account: r.account as 'available' | 'withdrawal_hold',
        amount: r.amount,
        balance_after: r.balanceAfter,
        created_at: r.createdAt.toISOString(),
        order: r.order?.id ? { _id: r.order.id, number: r.order.number, title: r.order.title } : null,
      })),
      next,
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // Withdrawals
  // -------------------------------------------------------------------------------------------------------

  /** A withdrawal request: the amount leaves the available balance for the held one at once. */
  async withdraw(user: UserRow, input: WithdrawalInput): Promise<Withdrawal> {
    const min = await this.deps.settings.get('withdrawals.minAmount');
    if (input.amount < min) {
      const message = PAYMENT_MESSAGES.withdrawalMin(rubles(min));
      throw badRequest(message, { amount: [message] });
    }
    const destination = normaliseDestination(input.method, input.destination);
    if (!destination) throw badRequest(PAYMENT_MESSAGES.cardNumber, { destination: [PAYMENT_MESSAGES.cardNumber] });
    return this.deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
      const available = await balanceOf(tx, { kind: 'available', userId: user.id }, { lock: true });
      if (available < input.amount) {
        const message = `${PAYMENT_MESSAGES.insufficientForWithdrawal} ${rubles(available)}`;
        throw new HttpError(409, message, { amount: [message] });
      }
      const [row] = await tx
        .insert(withdrawals)
        .values({ userId: user.id, amount: input.amount, method: input.method, destination, createdAt: clock.now() })
        .returning();
      await postTransfer(tx, {
        kind: 'withdrawal_hold',
        key: `withdrawal:${row!.id}:hold`,
        description: `Заявка на вывод ${rubles(input.amount)}`,
        legs: [
          { account: { kind: 'available', userId: user.id }, amount: -input.amount },
          { account: { kind: 'withdrawal_hold', userId: user.id }, amount: input.amount },
        ],
      });
      return presentWithdrawal(row!);
    });
  }

  private async withdrawalPage(where: SQL | undefined, query: { cursor?: string; limit: number }, admin: boolean) {
    const after = query.cursor ? keysetAfter(WITHDRAWAL_KEYS, cursorPosition(query.cursor, 'withdrawals', WITHDRAWAL_KEYS)) : undefined;
    const rows = await this.deps.db
      .select({ w: withdrawals, user: { id: users.id, name: users.name, email: users.email }, createdKey: timestampKey(withdrawals.createdAt) })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(and(where, after))
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => ['withdrawals', r.createdKey, r.w.id]);
    return { result: kept.map((r) => (admin ? presentWithdrawal(r.w, r.user, { full: true }) : presentWithdrawal(r.w))), next };
  }

  myWithdrawals(user: UserRow, query: { cursor?: string; limit: number }) {
    return this.withdrawalPage(eq(withdrawals.userId, user.id), query, false);
  }

  adminWithdrawals(query: { cursor?: string; limit: number; status?: WithdrawalStatus }) {
    return this.withdrawalPage(query.status ? eq(withdrawals.status, query.status) : undefined, query, true);
  }

  /** An admin approves (the money leaves to the outside) or rejects (it returns to the balance) a request, once. */
  async decideWithdrawal(admin: UserRow, id: string, decision: 'approve' | 'reject', reason: string | null = null): Promise<Withdrawal> {
    if (!isUuid(id)) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
    return this.deps.platform.withTx(userActor(admin), async ({ tx, clock, outbox }) => {
      const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
      if (!w) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
      if (w.status !== 'pending') throw new HttpError(409, PAYMENT_MESSAGES.withdrawalDecided);
      const approve = decision === 'approve';
      await postTransfer(tx, {
        kind: approve ? 'withdrawal_paid' : 'withdrawal_return',
        key: `withdrawal:${w.id}:decide`,
        description: approve ? `Вывод ${rubles(w.amount)} выполнен` : `Вывод ${rubles(w.amount)} отклонён`,
        legs: [
          { account: { kind: 'withdrawal_hold', userId: w.userId }, amount: -w.amount },
          approve ? { account: { kind: 'external', method: w.method }, amount: w.amount } : { account: { kind: 'available', userId: w.userId }, amount: w.amount },
        ],
      });
      const [row] = await tx
        .update(withdrawals)
        .set({ status: approve ? 'approved' : 'rejected', reviewedBy: admin.id, reviewedAt: clock.now(), rejectReason: approve ? null : reason })
        .where(eq(withdrawals.id, w.id))
        .returning();
      await audit(tx, {
        actorId: admin.id,
        action: approve ? 'withdrawal.approve' : 'withdrawal.reject',
        targetType: 'withdrawal',
        targetId: w.id,
        details: { amount: w.amount, method: w.method, ...(reason && !approve ? { reason } : {}) },
      });
      const [owner] = await tx.select().from(users).where(eq(users.id, w.userId));
      if (owner) this.deps.letters.notify(outbox, owner, 'withdrawal.decision', { amount: rubles(w.amount), decision, reason: approve ? null : reason });
      return presentWithdrawal(row!, owner ? { id: owner.id, name: owner.name, email: owner.email } : undefined, { full: true });
    });
  }
}
