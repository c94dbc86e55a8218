import type { UserRow } from '../users/index.ts';
import type { PaymentRow } from './schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { Idempotency } from '../../platform/idempotency.ts';
import { orderPaymentPort } from '../orders/index.ts';
import type { PaymentStatus, WithdrawalStatus } from '#contract/money';
import type { CryptoMethod, PayInput, PayResult, PaymentRates, Quote, SelfEmployedInput, PayoutDetails, TopUpInput, TopUpResult, Withdrawal, WithdrawalInput } from '#contract/payments';
import { decideWithdrawal } from './commands/decide-withdrawal.ts';
import { declareSelfEmployed, mySelfEmployed } from './commands/self-employed.ts';
import { applyDifference, listDifferences, providerView, resolveDifference } from './commands/differences.ts';
import { reconcileDay, yesterday } from './commands/reconcile.ts';
import { payFromBalance } from './commands/pay-balance.ts';
import { payByCard, payCrypto } from './commands/pay-provider.ts';
import { pollProviderPayments } from './commands/poll.ts';
import { pollPayouts, sendPayout } from './commands/payout.ts';
import { dealPaymentOf, pollRefunds, sendRefund, takeRefund } from './commands/refund.ts';
import { watchDeals } from './commands/deal-lifetime.ts';
import { quote } from './commands/quote.ts';
import { topUp } from './commands/top-up.ts';
import { webhook } from './commands/webhook.ts';
import { withdraw } from './commands/withdraw.ts';
import { giveDetails, takeRelease } from './commands/deal-payout.ts';
import type { PaymentContext, PaymentServiceDeps } from './deps.ts';
import { orderPage } from './order-page.ts';
import { paymentMethods } from './pricing.ts';
import { createProviderRegistry, type ProviderRegistry, type WebhookTransport } from './providers/registry.ts';
import type { WebhookRequest } from './providers/provider.ts';
import { adminPayments, adminWithdrawals, balance, entries, myPayments, myWithdrawals, savedPayoutMethod } from './queries.ts';

export type { PaymentServiceDeps } from './deps.ts';

type PageQuery = { cursor?: string; limit: number };

/**
 * Paying orders into escrow, providers and their webhooks, balances, withdrawals (ADR 025, 026). The face the
 * routes and other modules call; each command is a file of commands/, the reads are queries.ts and order-page.ts.
 */
export class PaymentService {
  /** The time quotes are made and checked by (tests move it). */
  clock: Clock;
  readonly idempotency: Idempotency;
  readonly providers: ProviderRegistry;
  private readonly ctx: PaymentContext;

  constructor(deps: PaymentServiceDeps) {
    this.clock = deps.platform.clock;
    this.idempotency = new Idempotency(deps.db, deps.platform.clock, { identity: deps.platform.identity });
    const clock: Clock = { now: () => this.clock.now() };
    const orders = orderPaymentPort(deps.orders);
    this.providers = createProviderRegistry({
      db: deps.db,
      platform: deps.platform,
      orders,
      clock,
      webhookSecret: deps.webhookSecret,
      sandbox: deps.sandbox !== false,
      yookassa: deps.yookassa,
      btcpay: deps.btcpay,
      methods: deps.methods,
      baseUrl: () => (deps.loopbackUrl ?? deps.siteUrl)(),
    });
    const { db, platform, settings, letters, rates, log } = deps;
    this.ctx = { db, platform, settings, letters, rates, log, clock, siteUrl: deps.siteUrl, orders, providers: this.providers };
    // An order paid by card in a safe deal is refunded to the card, inside the deal (ADR 051).
    deps.orders.useRefundRoute({
      toCard: async (ctx, orderId) => (await dealPaymentOf(this.ctx, ctx, orderId)) !== null,
      take: (ctx, refund) => takeRefund(this.ctx, ctx, refund),
    });
    // And the seller's share of such an order is paid out of the deal (ADR 053).
    deps.orders.useReleaseRoute({ take: (ctx, release) => takeRelease(this.ctx, ctx, release) });
  }

  /** POST /api/withdrawals/{id}/details: where a payout out of a safe deal that waits for details goes. */
  giveDetails(user: UserRow, id: string, details: PayoutDetails): Promise<Withdrawal> {
    return giveDetails(this.ctx, user, id, details);
  }

  /** The outbox job: a refund made at its provider (commands/refund.ts). */
  sendRefund(refundId: string): Promise<void> {
    return sendRefund(this.ctx, refundId);
  }

  /** The recurring job: refunds the provider has not answered for, asked about or sent again. */
  pollRefunds(): Promise<number> {
    return pollRefunds(this.ctx);
  }

  /** The recurring job: the reminders and the ends of safe deals' lifetimes (commands/deal-lifetime.ts, ADR 058). */
  watchDeals(): Promise<{ reminded: number; ended: number }> {
    return watchDeals(this.ctx);
  }

  /** The sandbox provider, for the tests that sign its events (ADR 026). */
  get sandbox() {
    return this.providers.sandbox.provider;
  }

  /** How the sandbox reaches our webhook endpoint (tests swap it). */
  get webhookTransport(): WebhookTransport {
    return this.providers.sandbox.webhookTransport;
  }

  set webhookTransport(transport: WebhookTransport) {
    this.providers.sandbox.webhookTransport = transport;
  }

  methods(): Promise<PaymentRates> {
    return paymentMethods(this.ctx);
  }

  orderPage(user: UserRow, orderId: string) {
    return orderPage(this.ctx, user, orderId);
  }

  quote(user: UserRow, input: { order_id: string; method: CryptoMethod }): Promise<Quote> {
    return quote(this.ctx, user, input);
  }

  /**
   * POST /api/payments/pay behind its Idempotency-Key: the first answer to (user, key) is stored and given again.
   * Answers the status and body to send.
   */
  payIdempotent(user: UserRow, key: string, input: PayInput) {
    return this.idempotency.run(user.id, key, 'payments.pay', input, () => this.pay(user, input));
  }

  /** Pays from the balance at once, or starts (or resumes) a provider payment and answers its page. */
  pay(user: UserRow, input: PayInput): Promise<PayResult> {
    if (input.method === 'balance') return payFromBalance(this.ctx, user, input.order_id);
    if (input.method === 'card') return payByCard(this.ctx, user, input.order_id);
    return payCrypto(this.ctx, user, input.order_id, input.method, input.quote_id);
  }

  /**
   * POST /api/payments/top-up behind its Idempotency-Key (ADR 062): a retried top-up is the first one's answer, never
   * a second payment.
   */
  topUpIdempotent(user: UserRow, key: string, input: TopUpInput) {
    return this.idempotency.run(user.id, key, 'payments.topUp', input, () => this.topUp(user, input));
  }

  /** Starts a top-up of the caller's balance at the method's provider and answers its page. */
  topUp(user: UserRow, input: TopUpInput): Promise<TopUpResult> {
    return topUp(this.ctx, user, input);
  }

  /** Asks the providers about the payments whose end has not come (the recurring job `payments-poll`). */
  pollProviders() {
    return pollProviderPayments(this.ctx);
  }

  /** The outbox job that hands an approved crypto withdrawal to its provider. */
  sendPayout(withdrawalId: string) {
    return sendPayout(this.ctx, withdrawalId);
  }

  /** Asks the providers about the payouts on their way (the recurring job `payments-payouts`). */
  pollPayouts() {
    return pollPayouts(this.ctx);
  }

  /** Compares a UTC day (YYYY-MM-DD; yesterday by default, the daily job's) with every provider that can list it. */
  reconcile(day: string = yesterday(this.clock.now())) {
    return reconcileDay(this.ctx, day);
  }

  differences(limit: number) {
    return listDifferences(this.ctx, limit);
  }

  resolveDifference(admin: UserRow, id: string, note: string) {
    return resolveDifference(this.ctx, admin, id, note);
  }

  applyDifference(admin: UserRow, id: string) {
    return applyDifference(this.ctx, admin, id);
  }

  providerView(paymentId: string) {
    return providerView(this.ctx, paymentId);
  }

  webhook(providerName: string, request: WebhookRequest) {
    return webhook(this.ctx, providerName, request);
  }

  /** The sandbox page's "pay" or "decline" (the crash test's child presses it). */
  sandboxDecide(paymentId: string, decision: 'pay' | 'decline'): Promise<{ return_url: string }> {
    return this.providers.sandbox.decide(paymentId, decision);
  }

  myPayments(user: UserRow, query: PageQuery & { purpose?: 'order' | 'top_up' }) {
    return myPayments(this.ctx, user, query);
  }

  adminPayments(query: PageQuery & { status?: PaymentStatus; method?: PaymentRow['method'] }) {
    return adminPayments(this.ctx, query);
  }

  balance(user: UserRow) {
    return balance(this.ctx, user);
  }

  entries(user: UserRow, query: PageQuery) {
    return entries(this.ctx, user, query);
  }

  withdraw(user: UserRow, input: WithdrawalInput): Promise<Withdrawal> {
    return withdraw(this.ctx, user, input);
  }

  myWithdrawals(user: UserRow, query: PageQuery & { status?: WithdrawalStatus }) {
    return myWithdrawals(this.ctx, user, query);
  }

  adminWithdrawals(query: PageQuery & { status?: WithdrawalStatus }) {
    return adminWithdrawals(this.ctx, query);
  }

  selfEmployed(user: UserRow) {
    return mySelfEmployed(this.ctx, user);
  }

  declareSelfEmployed(user: UserRow, input: SelfEmployedInput) {
    return declareSelfEmployed(this.ctx, user, input);
  }

  /** Where the seller's last card or ЮMoney withdrawal went (the payments port's savedPayoutMethod). */
  savedPayoutMethod(userId: string) {
    return savedPayoutMethod(this.ctx.db, userId);
  }

  decideWithdrawal(admin: UserRow, id: string, decision: 'approve' | 'reject', reason: string | null = null): Promise<Withdrawal> {
    return decideWithdrawal(this.ctx, admin, id, decision, reason);
  }
}
