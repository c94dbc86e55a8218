import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '#contract/payments';

// A payment provider (ADR 026, 048): it makes a payment on its side, tells its outcome by a webhook, and answers
// what it knows of a payment when asked. Only the provider's own folder knows its protocol; the payments commands
// see this interface.

export interface ProviderPayment {
  /** Our payment's id: the provider keeps it as its metadata, and it is the idempotency key of every call about it. */
  id: string;
  /** The order it pays; null for a top-up of the balance (ADR 062). */
  orderId: string | null;
  /** «Заказ №12: Логотип» or «Пополнение баланса» — what the customer sees at the provider. */
  description: string;
  currency: 'RUB' | 'USDT' | 'BTC';
  /** Minor units of the currency. */
  currencyAmount: number;
  /** What the seller gets of it, kopecks (a safe deal's settlement). */
  sellerShare: number;
  /** Where the customer comes back to after the provider's page (absolute). */
  returnUrl: string;
}

/** Where the customer comes back to from a provider's page: the order's payment page, or a top-up's finance page (ADR 062). */
export function paymentReturnPath(payment: { id: string; orderId: string | null }): string {
  return payment.orderId ? `/payments/${payment.orderId}?payment=${payment.id}` : `/profile/finance?top_up=${payment.id}`;
}

export interface CreatedPayment {
  /** The provider's id of the payment: its webhooks name it. */
  providerRef: string;
  /** Where the customer confirms the payment (a path of ours, or the provider's absolute URL). */
  redirectUrl: string;
  /** The provider's deal that holds the money (ЮKassa's safe deal), if any, and when it ends (ADR 058). */
  dealRef?: string;
  dealExpiresAt?: Date | null;
}

/** A webhook as it reached us: the bytes, the headers, and the sender's address (through TRUST_PROXY). */
export interface WebhookRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}

/**
 * What a webhook proves: an event to apply; a payout to ask the provider about; nothing to do (a state we do not act on, a payment not settled at the
 * provider whatever the body said), answered 2xx so the provider stops sending it; or nothing at all (a bad
 * signature, a sender not the provider's), refused.
 */
export type WebhookReading = { event: WebhookEvent } | { payout: string } | { refund: string } | { ignored: string } | { refused: string };

/** One payout to make: our withdrawal's id (the provider's idempotency key), where to and how much (minor units). */
export interface PayoutRequest {
  id: string;
  method: 'card' | 'yoomoney' | 'usdt' | 'btc';
  /** A crypto address, a ЮMoney wallet's number, or a card's mask (the card is paid by its token). */
  destination: string;
  /** A card's token from the payout widget (ADR 050). */
  payoutToken?: string | null;
  currency: 'RUB' | 'BTC' | 'USDT';
  amount: number;
  /** A self-employed seller's id at the provider: the payout registers their receipt in «Мой налог». */
  selfEmployedId?: string | null;
  /** A seller's share paid out of a safe deal (ADR 053): the deal, and the order it pays for. */
  deal?: { ref: string; orderNumber: number } | null;
  /** Which try this is: a payout sent again to new details is a new payout (a new idempotence key). */
  attempt?: number;
}

/** The provider refused the payout for good (a bad token, a limit, a wallet that takes none): the money goes back. */
export class PayoutRefused extends Error {
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(`${provider} refused the payout: ${reason}`);
  }
}

/** A provider that sends money out (withdrawals): each call is idempotent by our withdrawal's id. */
export interface PayoutProvider {
  readonly name: string;
  /**
   * Set when it pays a seller's share out of a safe deal its payments made (ADR 053); `sharedTokens` when a card's
   * token serves both those payouts and withdrawals from the balance (one account tokenises for both).
   */
  readonly dealPayouts?: { sharedTokens: boolean };
  /** Throws PayoutRefused when the provider will never make it, ProviderUnavailable when it could not be asked. */
  createPayout(request: PayoutRequest): Promise<{ payoutId: string; state: string }>;
  /** Null when the provider does not know the payout; `inDeal` for a payout out of a safe deal (the shop's, not the gateway's). */
  payoutState(payoutId: string, options?: { inDeal?: boolean }): Promise<{ payoutId: string; state: string } | null>;
  /** What a provider's state of a payout means: sent, returned, or still on its way (null). */
  payoutOutcome(state: string): 'paid' | 'cancelled' | null;
  /** The payouts made in a window, as the provider lists them (reconciliation). */
  listPayouts?(from: Date, to: Date): Promise<PayoutRecord[]>;
}

/** One payout as its provider lists it: our withdrawal's id from its metadata, its state, its amount (minor units). */
export interface PayoutRecord {
  ref: string;
  withdrawalId: string | null;
  state: string;
  currency: string;
  amount: number;
  /**
   * The provider's deal the payout was made out of (ЮKassa's safe deal pays a seller's share so), if any: such a
   * payout names no withdrawal, and is not one of ours to find among them when it names none.
   */
  dealRef?: string | null;
}

/** A provider call that failed after its retries (timeout, 5xx, network): the customer may try again. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    cause: unknown,
  ) {
    super(`${provider} did not answer`, { cause });
  }
}

/** One payment as the provider lists it (reconciliation, ADR 048): its words mapped onto ours. */
export interface ProviderRecord {
  /** The provider's id of the payment. */
  ref: string;
  /** Our payment's id, from the provider's metadata; null when it names none. */
  paymentId: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  currency: string;
  /** Minor units: what arrived for a succeeded payment, what was asked otherwise. */
  amount: number;
  createdAt: Date;
}

/** A payment in the provider's own words, for the admin: its status and amount as the provider writes them. */
export interface ProviderView {
  status: string;
  amount: string;
  currency: string;
  raw: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly name: string;
  /**
   * Its payments are each held in a safe deal for an order (ЮKassa's, ADR 048/051): such money belongs to its order
   * and is never kept on the balance, so the provider takes no top-ups (ADR 062).
   */
  readonly safeDeal?: boolean;
  /**
   * Makes the payment on the provider's side, called outside any transaction. Calling it again for the same
   * payment gives the same payment (the provider's idempotency key is ours): after a crash, or a lost answer, the
   * payment is found again rather than made twice. Throws ProviderUnavailable when the provider cannot be reached.
   */
  createPayment(payment: ProviderPayment): Promise<CreatedPayment>;
  /** Reads a webhook: checks its sender or signature, and what it says against the provider itself if need be. */
  readWebhook(request: WebhookRequest): Promise<WebhookReading>;
  /**
   * The payment's outcome as the provider has it now, as the event its webhook would bring, or null while it is
   * still open (the poll of a payment whose webhook never came). Absent where the provider always calls back.
   */
  checkPayment?(providerRef: string): Promise<WebhookEvent | null>;
  /** The payments made at the provider in [from, to) by their creation time, all pages of them (reconciliation). */
  listPayments?(from: Date, to: Date): Promise<ProviderRecord[]>;
  /** A payment as the provider has it now, in its own words, or null when it knows none by that id. */
  describePayment?(providerRef: string): Promise<ProviderView | null>;
  /** Refunds of its payments back to the payer (ЮKassa's safe deal, ADR 051). */
  readonly refunds?: RefundProvider;
}

/** A refund to make (ADR 051): our refund's id is its idempotency key. Kopecks. */
export interface RefundRequest {
  id: string;
  /** The provider's id of the payment refunded. */
  paymentRef: string;
  amount: number;
  /** How much of the seller's payout in the deal it takes back. */
  sellerReduction: number;
  description: string;
}

/** A refund as its provider has it: still on its way, made, or refused for good (with why). */
export interface ProviderRefund {
  /** Null when the provider refused it without making one. */
  ref: string | null;
  state: 'pending' | 'succeeded' | 'refused';
  reason: string | null;
}

/** One refund as the provider lists it (reconciliation). */
export interface RefundRecord extends ProviderRefund {
  ref: string;
  /** Our refund's id, from the provider's metadata; null when it names none. */
  refundId: string | null;
  paymentRef: string;
  currency: string;
  amount: number;
}

export interface RefundProvider {
  /** Makes the refund, or finds the one made under the same id; throws ProviderUnavailable when it cannot be asked. */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** Null when the provider knows no refund by that id. */
  refundState(ref: string): Promise<ProviderRefund | null>;
  /** The refunds made in [from, to), all pages (reconciliation). */
  listRefunds(from: Date, to: Date): Promise<RefundRecord[]>;
  /** Every refund of one payment, the provider's own among them (a deal's end, ADR 058). */
  refundsOfPayment(paymentRef: string): Promise<RefundRecord[]>;
  /** A safe deal as the provider has it now (open, or closed by a payout, a refund or its lifetime); null if unknown. */
  dealState(dealRef: string): Promise<{ open: boolean; expiresAt: Date | null } | null>;
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
