import { webhookEventSchema, type WebhookEvent } from '#contract/payments';
import type { Clock } from '../../../../platform/clock.ts';
import { SIGNATURE_HEADER, signPayload, verifySignature, type CreatedPayment, type PaymentProvider, type ProviderPayment, type WebhookReading, type WebhookRequest } from '../provider.ts';

// The built-in sandbox provider (ADR 026): the default, for the demo and the tests. Its confirmation page is ours
// (/sandbox-pay/<payment>); its "pay" and "decline" buttons make it send the signed webhook back through the HTTP
// loopback, from an outbox job that retries until our endpoint answers 2xx.

export const SANDBOX = 'sandbox';

export class SandboxProvider implements PaymentProvider {
  readonly name = SANDBOX;

  constructor(
    private readonly secret: () => string,
    private readonly clock: Clock,
  ) {}

  async createPayment(payment: ProviderPayment): Promise<CreatedPayment> {
    return { providerRef: `sb_${payment.id}`, redirectUrl: `/sandbox-pay/${payment.id}` };
  }

  /** The event the sandbox sends for a decision, and its signed headers. */
  event(input: { eventId: string; providerRef: string; outcome: 'pay' | 'decline'; currency: WebhookEvent['currency']; amount: number }) {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const event: WebhookEvent = {
      id: input.eventId,
      type: input.outcome === 'pay' ? 'payment.succeeded' : 'payment.failed',
      payment_ref: input.providerRef,
      currency: input.currency,
      amount: input.amount,
      created: now,
    };
    const body = JSON.stringify(event);
    return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.secret(), body, now) } };
  }

  async readWebhook({ rawBody, headers }: WebhookRequest): Promise<WebhookReading> {
    const header = headers[SIGNATURE_HEADER];
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if (!verifySignature(this.secret(), rawBody, Array.isArray(header) ? header[0] : header, now)) return { refused: 'signature' };
    try {
      const parsed = webhookEventSchema.safeParse(JSON.parse(rawBody));
      return parsed.success ? { event: parsed.data } : { refused: 'body' };
    } catch {
      return { refused: 'body' };
    }
  }
}
