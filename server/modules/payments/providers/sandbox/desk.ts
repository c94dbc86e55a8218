import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../../db/client.ts';
import { payments, type PaymentRow } from '../../schema.ts';
import { HttpError, notFound } from '../../../../lib/http.ts';
import { isUuid } from '../../../../lib/text.ts';
import { systemActor } from '../../../../platform/actor.ts';
import type { Clock } from '../../../../platform/clock.ts';
import type { Platform } from '../../../../platform/platform.ts';
import { JobDeferred } from '../../../../platform/dispatcher.ts';
import type { OrderPaymentPort } from '../../../orders/index.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { SANDBOX, SandboxProvider } from './provider.ts';
import { paymentReturnPath } from '../provider.ts';

// The sandbox's side of a payment (ADR 026): its confirmation page, its "pay" and "decline" buttons, and the
// outbox job by which it sends the signed webhook to our endpoint through the HTTP loopback.

/** The outbox job by which the sandbox provider sends its signed webhook (retried with backoff until 2xx). */
export const SANDBOX_WEBHOOK_JOB = 'payments.sandboxWebhook';

export interface SandboxWebhookJob {
  paymentId: string;
  providerRef: string;
  eventId: string;
  outcome: 'pay' | 'decline';
  currency: PaymentRow['currency'];
  amount: number;
}

/** Sends a webhook and answers the HTTP status (the sandbox's way to reach us; tests may swap it). */
export type WebhookTransport = (path: string, body: string, headers: Record<string, string>) => Promise<number>;

export interface SandboxDeskDeps {
  db: Db;
  platform: Platform;
  orders: OrderPaymentPort;
  clock: Clock;
  webhookSecret: string;
  /** The sandbox is on (env PAYMENTS_SANDBOX): off, its pages are unknown (404). */
  on: boolean;
  /** Where the webhook is sent: this server's own address; null while it does not listen (closing, not started). */
  baseUrl: () => string | null;
}

export class SandboxDesk {
  readonly provider: SandboxProvider;
  webhookTransport: WebhookTransport;

  constructor(private readonly deps: SandboxDeskDeps) {
    this.provider = new SandboxProvider(() => deps.webhookSecret, deps.clock);
    this.webhookTransport = async (path, body, headers) => {
      const base = deps.baseUrl();
      // Closed (or not yet listening), the loopback reaches no one, or another process on a guessed port: the job
      // goes back to the outbox for an instance that listens (or this one's next start).
      if (base === null) throw new JobDeferred('this server does not listen: the sandbox webhook waits for one that does');
      const res = await fetch(`${base}${path}`, { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      return res.status;
    };
    // Registered even when the sandbox is off: a job queued before a restart still has its handler.
    deps.platform.dispatcher.handle<SandboxWebhookJob>(SANDBOX_WEBHOOK_JOB, (job) => this.sendWebhook(job));
  }

  private async payment(paymentId: string): Promise<PaymentRow> {
    if (!this.deps.on || !isUuid(paymentId)) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const [payment] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.provider, SANDBOX), isNotNull(payments.providerRef)));
    if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return payment;
  }

  private returnUrl = (p: PaymentRow) => paymentReturnPath(p);

  private expired = (p: PaymentRow) => p.status === 'pending' && p.quoteExpiresAt !== null && p.quoteExpiresAt <= this.deps.clock.now();

  /** The confirmation page: what is to be paid, for which order, and where to return. */
  async page(paymentId: string) {
    const payment = await this.payment(paymentId);
    // A top-up (ADR 062) pays no order.
    const order = payment.orderId ? (await this.deps.orders.labels(this.deps.db, [payment.orderId])).get(payment.orderId)! : null;
    return {
      _id: payment.id,
      status: this.expired(payment) ? 'expired' : payment.status,
      currency: payment.currency,
      currency_amount: payment.currencyAmount,
      order: order && { _id: order.id, number: order.number, title: order.title },
      return_url: this.returnUrl(payment),
    };
  }

  /** "Оплатить" or "Отклонить" on the sandbox page: the sandbox sends its webhook (an outbox job, retried). */
  async decide(paymentId: string, decision: 'pay' | 'decline'): Promise<{ return_url: string }> {
    const payment = await this.payment(paymentId);
    if (this.expired(payment)) throw new HttpError(409, PAYMENT_MESSAGES.quoteExpired);
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
  async sendWebhook(job: SandboxWebhookJob): Promise<void> {
    const { body, headers } = this.provider.event({ eventId: job.eventId, providerRef: job.providerRef, outcome: job.outcome, currency: job.currency, amount: job.amount });
    const status = await this.webhookTransport(`/api/payments/webhooks/${SANDBOX}`, body, headers);
    if (status < 200 || status >= 300) throw new Error(`sandbox webhook answered ${status}`);
  }
}
