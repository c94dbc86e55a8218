import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '#contract/payments';

// A payment provider (ADR 026): it makes a payment on its side and sends the outcome back as a signed webhook.
// Only the provider's own module knows its protocol; the payments service sees this interface.

export interface ProviderPayment {
  /** Our payment's id (the provider keeps it as its reference's metadata). */
  id: string;
  orderId: string;
  currency: 'RUB' | 'USDT' | 'BTC';
  /** Minor units of the currency. */
  currencyAmount: number;
}

export interface CreatedPayment {
  /** The provider's id of the payment: its webhooks name it. */
  providerRef: string;
  /** Where the customer confirms the payment (a path of ours, or the provider's absolute URL). */
  redirectUrl: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Makes the payment on the provider's side. Called outside any transaction (it may be an HTTP call). */
  createPayment(payment: ProviderPayment): Promise<CreatedPayment>;
  /**
   * The event of a webhook when its signature is the provider's and fresh; null otherwise (a forgery, a stale
   * replay or a malformed body change nothing).
   */
  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookEvent | null;
}

export const SIGNATURE_HEADER = 'x-signature';
/** A signature older (or further in the future) than this is refused. */
export const SIGNATURE_TOLERANCE_S = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signPayload(secret: string, rawBody: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Whether the header signs this body with this secret, within the tolerance of `now` (seconds). */
export function verifySignature(secret: string, rawBody: string, header: string | undefined, nowSeconds: number, toleranceS = SIGNATURE_TOLERANCE_S): boolean {
  if (!header || header.length > 300) return false;
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceS || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
