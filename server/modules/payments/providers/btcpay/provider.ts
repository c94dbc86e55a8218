import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '#contract/payments';
import type { CreatedPayment, PaymentProvider, PayoutProvider, PayoutRecord, ProviderPayment, ProviderRecord, ProviderView, WebhookReading, WebhookRequest } from '../provider.ts';
import {
  BTCPAY,
  GreenfieldClient,
  MINOR_DECIMALS,
  isCryptoCurrency,
  toDecimalString,
  toMinorUnits,
  type ClientOptions,
  type CryptoCurrency,
  type InvoiceData,
  type PayoutData,
  type PayoutState,
} from './client.ts';

// BTCPay Server (self-hosted, Greenfield API v1) as a payment provider for BTC and USDT.
//
// Protocol: a payment is an invoice of the store (POST /api/v1/stores/{storeId}/invoices) in the payment's currency,
// with metadata.orderId = our payment id (Greenfield has no idempotency key: a create first looks the order id up,
// so a lost answer never makes a second invoice). The customer pays on the invoice's checkoutLink, which expires in
// 15 minutes. BTCPay then POSTs webhooks signed `BTCPay-Sig: sha256=<hex HMAC-SHA256(secret, raw body)>`; their
// body only names the invoice, so for the types that can end a payment we re-read the invoice and its payment
// methods and decide from what BTCPay says now (a forged or stale body proves nothing). Amounts are what was paid,
// in minor units (satoshi, USDT cents), digits below the minor unit dropped.
//
//   invoice status / additionalStatus       event               amount              event id
//   Settled (None, PaidOver)                payment.succeeded   paid                <invoice>:settled:<paid>
//   Settled (Marked by the store's staff)   payment.succeeded   invoice amount      <invoice>:settled:<amount>
//   Expired, PaidPartial (confirmed)        payment.succeeded   paid (less)         <invoice>:partial:<paid>
//   Expired, PaidLate (confirmed)           payment.succeeded   paid, late: true    <invoice>:late:<paid>
//   Expired, nothing paid                   payment.failed      invoice amount      <invoice>:expired
//   Invalid (any)                           payment.failed      invoice amount      <invoice>:invalid
//   New, Processing, Expired with payments still unconfirmed   → ignored (checkPayment: null)
//
// The event id is the invoice, its outcome and, for money that arrived, the total: a redelivery, another webhook
// of the same news and a poll (checkPayment) give the same id and are applied once, while a second payment to an
// expired invoice is a new total, applied for what it adds (the payments module counts totals, not increments). Crypto withdrawals are
// store payouts (POST /api/v1/stores/{storeId}/payouts, approved), found again by metadata.withdrawalId.

export interface BtcpayConfig {
  /** BTCPAY_URL: the server's root, e.g. https://pay.example.org */
  url: string;
  /** BTCPAY_API_KEY: a key with btcpay.store.cancreateinvoice, canviewinvoices, cancreatepullpayments, canviewpayouts. */
  apiKey: string;
  /** BTCPAY_STORE_ID */
  storeId: string;
  /** BTCPAY_WEBHOOK_SECRET: the secret of the store's webhook that points to our endpoint. */
  webhookSecret: string;
  /** Payment methods offered per currency (default: the store's enabled methods). */
  paymentMethods?: Partial<Record<CryptoCurrency, string[]>>;
  /** Payout method per currency (default BTC-CHAIN and USDT-TRON, the USDt plugin's Tron method). */
  payoutMethods?: Partial<Record<CryptoCurrency, string>>;
}

export const INVOICE_EXPIRATION_MINUTES = 15;
/** Invoices a page when listing, and the most one day may have before the list is taken for a runaway. */
const LIST_PAGE = 100;
const MAX_LISTED = 100_000;
export const SIGNATURE_HEADER = 'btcpay-sig';

/** Webhook types after which the invoice is re-read (the others cannot end a payment). */
const ENDING_TYPES = new Set(['InvoiceSettled', 'InvoiceExpired', 'InvoiceInvalid', 'InvoiceExpiredPaidPartial', 'InvoicePaidAfterExpiration', 'InvoicePaymentSettled']);

export interface PayoutRequest {
  /** Our withdrawal's id: kept as the payout's metadata.withdrawalId, so a repeated call finds the payout again. */
  id: string;
  destination: string;
  currency: CryptoCurrency;
  /** Minor units (satoshi, USDT cents). */
  amount: number;
}

export interface PayoutStatus {
  payoutId: string;
  state: PayoutState;
  /** The transaction's proof once paid (e.g. { proofType: 'PayoutTransactionOnChainBlob', transactionId }). */
  proof: Record<string, unknown> | null;
}

/** Crypto withdrawals through the provider (not part of PaymentProvider yet). */
export interface CryptoPayouts {
  createPayout(request: PayoutRequest): Promise<PayoutStatus>;
  /** Null when the provider does not know the payout. */
  payoutState(payoutId: string): Promise<PayoutStatus | null>;
}

type Outcome = { event: WebhookEvent } | { pending: string };

export class BtcpayProvider implements PaymentProvider, CryptoPayouts, PayoutProvider {
  readonly name = BTCPAY;
  readonly client: GreenfieldClient;

  constructor(
    private readonly config: BtcpayConfig,
    private readonly clock: { now(): Date },
    options: ClientOptions = {},
  ) {
    this.client = new GreenfieldClient(config, options);
  }

  async createPayment(payment: ProviderPayment): Promise<CreatedPayment> {
    const currency = payment.currency;
    if (!isCryptoCurrency(currency)) throw new Error(`btcpay takes BTC or USDT, not ${currency}`);
    const amount = toDecimalString(payment.currencyAmount, MINOR_DECIMALS[currency]);
    const methods = this.config.paymentMethods?.[currency];
    const invoice = await this.client.createInvoiceOnce(
      {
        amount,
        currency,
        metadata: { orderId: payment.id, orderUrl: payment.returnUrl, itemDesc: payment.description },
        checkout: { expirationMinutes: INVOICE_EXPIRATION_MINUTES, redirectURL: payment.returnUrl, ...(methods ? { paymentMethods: methods } : {}) },
      },
      // A live invoice of the same price is this payment's; an expired or invalid one is not reused.
      (found) =>
        found.currency === currency &&
        sameAmount(found.amount, payment.currencyAmount, currency) &&
        (found.status === 'Settled' || found.status === 'Processing' || (found.status === 'New' && found.expirationTime * 1000 > this.clock.now().getTime())),
    );
    return { providerRef: invoice.id, redirectUrl: invoice.checkoutLink };
  }

  async readWebhook({ rawBody, headers }: WebhookRequest): Promise<WebhookReading> {
    if (!this.signed(rawBody, header(headers, SIGNATURE_HEADER))) return { refused: 'signature' };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      return { refused: 'body' };
    }
    if (!body || typeof body !== 'object' || typeof body.type !== 'string') return { refused: 'body' };
    if (body.storeId !== this.config.storeId) return { ignored: `another store's webhook (${String(body.storeId)})` };
    // A payout's news: its state is asked of BTCPay, not taken from the body.
    if (body.type.startsWith('Payout')) return typeof body.payoutId === 'string' && body.payoutId ? { payout: body.payoutId } : { refused: 'body' };
    const ending = ENDING_TYPES.has(body.type) || (body.type === 'InvoiceReceivedPayment' && body.afterExpiration === true);
    if (!ending) return { ignored: `${body.type}: nothing to do` };
    if (typeof body.invoiceId !== 'string' || !body.invoiceId) return { refused: 'body' };
    const outcome = await this.outcome(body.invoiceId);
    if (!outcome) return { ignored: `unknown invoice ${body.invoiceId}` };
    return 'event' in outcome ? outcome : { ignored: outcome.pending };
  }

  async checkPayment(providerRef: string): Promise<WebhookEvent | null> {
    const outcome = await this.outcome(providerRef);
    return outcome && 'event' in outcome ? outcome.event : null;
  }

  /**
   * The store's invoices created in [from, to), every page, mapped onto our words as the poll would read each
   * (an expired invoice with payments is asked for its payment methods). Invoices in other currencies are not ours.
   */
  async listPayments(from: Date, to: Date): Promise<ProviderRecord[]> {
    const start = Math.floor(from.getTime() / 1000);
    const end = Math.ceil(to.getTime() / 1000) - 1;
    const records: ProviderRecord[] = [];
    for (let skip = 0; skip < MAX_LISTED; skip += LIST_PAGE) {
      const page = await this.client.listInvoices(start, end, skip, LIST_PAGE);
      for (const invoice of page) {
        const created = invoice.createdTime * 1000;
        if (!isCryptoCurrency(invoice.currency) || created < from.getTime() || created >= to.getTime()) continue;
        records.push(await this.recordOf(invoice));
      }
      if (page.length < LIST_PAGE) return records;
    }
    throw new Error(`BTCPay listed more than ${MAX_LISTED} invoices for one day`);
  }

  async describePayment(providerRef: string): Promise<ProviderView | null> {
    const invoice = await this.client.getInvoice(providerRef);
    if (!invoice) return null;
    const status = invoice.additionalStatus === 'None' ? invoice.status : `${invoice.status} (${invoice.additionalStatus})`;
    return { status, amount: invoice.paidAmount, currency: invoice.currency, raw: invoice as unknown as Record<string, unknown> };
  }

  private async recordOf(invoice: InvoiceData): Promise<ProviderRecord> {
    const outcome = await this.outcomeOf(invoice);
    const event = outcome && 'event' in outcome ? outcome.event : null;
    const asked = toMinorUnits(invoice.amount, MINOR_DECIMALS[invoice.currency as CryptoCurrency]);
    return {
      ref: invoice.id,
      paymentId: typeof invoice.metadata?.orderId === 'string' ? invoice.metadata.orderId : null,
      status: event ? (event.type === 'payment.succeeded' ? 'succeeded' : 'failed') : 'pending',
      currency: invoice.currency,
      amount: event?.type === 'payment.succeeded' ? event.amount : asked,
      createdAt: new Date(invoice.createdTime * 1000),
    };
  }

  /** What the invoice's state means for its payment, from BTCPay itself; null when BTCPay does not know it. */
  private async outcome(invoiceId: string): Promise<Outcome | null> {
    const invoice = await this.client.getInvoice(invoiceId);
    return invoice && this.outcomeOf(invoice);
  }

  private async outcomeOf(invoice: InvoiceData): Promise<Outcome> {
    const currency = invoice.currency;
    if (!isCryptoCurrency(currency)) return { pending: `invoice in ${currency}: not ours` };
    const decimals = MINOR_DECIMALS[currency];
    const asked = toMinorUnits(invoice.amount, decimals);
    const paid = toMinorUnits(invoice.paidAmount, decimals);
    const event = (outcome: string, type: WebhookEvent['type'], amount: number, late?: boolean): Outcome => ({
      event: {
        // The total that arrived is in the id: a second payment to an expired invoice is news, a redelivery is not.
        id: type === 'payment.succeeded' ? `${invoice.id}:${outcome}:${amount}` : `${invoice.id}:${outcome}`,
        type,
        payment_ref: invoice.id,
        currency,
        amount,
        created: Math.floor(this.clock.now().getTime() / 1000),
        ...(late ? { late: true } : {}),
      },
    });
    switch (invoice.status) {
      case 'Settled':
        if (invoice.additionalStatus === 'Marked') return event('settled', 'payment.succeeded', Math.max(asked, paid));
        return paid > 0 ? event('settled', 'payment.succeeded', paid) : { pending: 'settled with nothing paid' };
      case 'Invalid':
        return event('invalid', 'payment.failed', asked);
      case 'Expired': {
        if (paid === 0) return event('expired', 'payment.failed', asked);
        // The money is credited once its payments are confirmed (InvoicePaymentSettled brings us back here).
        const methods = (await this.client.getPaymentMethods(invoice.id)) ?? [];
        if (methods.some((method) => method.payments.some((p) => p.status === 'Processing'))) return { pending: 'expired invoice: payments not confirmed yet' };
        if (invoice.additionalStatus === 'PaidLate' || paid >= asked) return event('late', 'payment.succeeded', paid, true);
        return event('partial', 'payment.succeeded', paid);
      }
      default:
        return { pending: `invoice ${invoice.status}` };
    }
  }

  private signed(rawBody: string, signature: string | undefined): boolean {
    if (!signature || !/^sha256=[0-9a-fA-F]{64}$/.test(signature)) return false;
    const expected = createHmac('sha256', this.config.webhookSecret).update(rawBody, 'utf8').digest();
    return timingSafeEqual(expected, Buffer.from(signature.slice('sha256='.length), 'hex'));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Crypto withdrawals.

  async createPayout({ id, destination, currency, amount }: Omit<PayoutRequest, 'currency'> & { currency: string }): Promise<PayoutStatus> {
    if (currency !== 'BTC' && currency !== 'USDT') throw new Error('BTCPay pays BTC and USDT only');
    const payoutMethodId = this.config.payoutMethods?.[currency] ?? (currency === 'BTC' ? 'BTC-CHAIN' : 'USDT-TRON');
    const payout = await this.client.createPayoutOnce(
      { destination, amount: toDecimalString(amount, MINOR_DECIMALS[currency]), payoutMethodId, approved: true, metadata: { source: 'Подряд: вывод средств' } },
      'withdrawalId',
      id,
    );
    return payoutStatus(payout);
  }

  async payoutState(payoutId: string): Promise<PayoutStatus | null> {
    const payout = await this.client.getPayout(payoutId);
    return payout ? payoutStatus(payout) : null;
  }

  /** The store's payouts dated in the window (cancelled ones too), for reconciliation. */
  async listPayouts(from: Date, to: Date): Promise<PayoutRecord[]> {
    const all = await this.client.listPayouts(true);
    return all
      .filter((p) => {
        const at = Number(p.date) * 1000;
        return at >= from.getTime() && at < to.getTime();
      })
      .flatMap((p) => {
        const currency = p.originalCurrency;
        if (!isCryptoCurrency(currency)) return [];
        const withdrawalId = typeof p.metadata?.withdrawalId === 'string' ? p.metadata.withdrawalId : null;
        return [{ ref: p.id, withdrawalId, state: p.state, currency, amount: toMinorUnits(p.originalAmount, MINOR_DECIMALS[currency]) }];
      });
  }

  payoutOutcome(state: string): 'paid' | 'cancelled' | null {
    return state === 'Completed' ? 'paid' : state === 'Cancelled' ? 'cancelled' : null;
  }
}

function payoutStatus(payout: PayoutData): PayoutStatus {
  return { payoutId: payout.id, state: payout.state, proof: payout.paymentProof ?? null };
}

function sameAmount(decimal: string, minor: number, currency: CryptoCurrency): boolean {
  try {
    return toMinorUnits(decimal, MINOR_DECIMALS[currency]) === minor;
  } catch {
    return false;
  }
}

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}
