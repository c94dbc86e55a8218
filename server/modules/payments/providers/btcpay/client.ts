import { ProviderUnavailable } from '../provider.ts';

// A small typed client of BTCPay Server's Greenfield API v1 (the calls the btcpay provider needs). Field names,
// paths and statuses are Greenfield's (BTCPayServer/wwwroot/swagger/v1/swagger.template.*.json). Every call has a
// timeout and retries 5xx, timeouts and network errors; a 4xx is thrown at once as a GreenfieldError.

export const BTCPAY = 'btcpay';

export type InvoiceStatus = 'New' | 'Processing' | 'Settled' | 'Expired' | 'Invalid';
export type InvoiceAdditionalStatus = 'None' | 'PaidLate' | 'PaidPartial' | 'Marked' | 'Invalid' | 'PaidOver';
export type PayoutState = 'AwaitingApproval' | 'AwaitingPayment' | 'InProgress' | 'Completed' | 'Cancelled';

/** Greenfield's InvoiceData (the fields we read). Amounts are decimal strings in the invoice's currency. */
export interface InvoiceData {
  id: string;
  storeId: string;
  amount: string;
  paidAmount: string;
  currency: string;
  type: string;
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  status: InvoiceStatus;
  additionalStatus: InvoiceAdditionalStatus;
  archived: boolean;
  metadata: Record<string, unknown> & { orderId?: string | null; orderUrl?: string | null };
  checkout?: Record<string, unknown>;
}

export interface InvoicePayment {
  id: string;
  receivedDate: number;
  value: string;
  fee: string;
  status: 'Invalid' | 'Processing' | 'Settled';
  destination: string;
}

/** Greenfield's InvoicePaymentMethodDataModel: amounts are decimal strings in the method's currency. */
export interface InvoicePaymentMethod {
  paymentMethodId: string;
  currency: string;
  destination: string;
  paymentLink: string | null;
  rate: string;
  paymentMethodPaid: string;
  totalPaid: string;
  due: string;
  amount: string;
  paymentMethodFee: string;
  payments: InvoicePayment[];
  activated: boolean;
}

export interface CreateInvoiceRequest {
  amount: string;
  currency: string;
  metadata: { orderId: string; orderUrl?: string; itemDesc?: string };
  checkout: { expirationMinutes: number; redirectURL?: string; paymentMethods?: string[]; defaultLanguage?: string };
}

export interface PayoutData {
  id: string;
  revision: number;
  pullPaymentId: string | null;
  date: string;
  destination: string;
  originalCurrency: string;
  originalAmount: string;
  payoutCurrency: string;
  payoutAmount: string | null;
  payoutMethodId: string;
  state: PayoutState;
  paymentProof: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
}

export interface CreatePayoutRequest {
  destination: string;
  amount: string;
  payoutMethodId: string;
  approved: boolean;
  metadata?: Record<string, unknown>;
}

export interface ClientConfig {
  url: string;
  apiKey: string;
  storeId: string;
}

export interface ClientOptions {
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Attempts in all (default 3). */
  attempts?: number;
  /** The wait before the n-th retry is n × this (default 300 ms). */
  backoffMs?: number;
}

/** A 4xx answer of Greenfield: `{code, message}` (400, 401, 403, 404) or a validation array (422). Not retried. */
export class GreenfieldError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: unknown,
  ) {
    super(`BTCPay Server answered ${status} ${code}`);
  }
}

/** A failure worth another attempt: 5xx, a timeout, the network. */
class Retryable extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// Money: integer minor units ↔ Greenfield's decimal strings, without floating point.

/** Decimal places of our minor units: satoshi for BTC, cents for USDT. */
export const MINOR_DECIMALS = { BTC: 8, USDT: 2 } as const;
export type CryptoCurrency = keyof typeof MINOR_DECIMALS;

export function isCryptoCurrency(currency: string): currency is CryptoCurrency {
  return currency === 'BTC' || currency === 'USDT';
}

/** 150000 satoshi, 8 → "0.00150000". */
export function toDecimalString(minor: number, decimals: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount of minor units: ${minor}`);
  const digits = String(minor).padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** "0.00150000", 8 → 150000; digits past the minor unit are dropped (a paid amount is never rounded up). */
export function toMinorUnits(decimal: string | number, decimals: number): number {
  const text = String(decimal).trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${text}`);
  const fraction = (match[2] ?? '').padEnd(decimals, '0').slice(0, decimals);
  const minor = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction || '0');
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount too large: ${text}`);
  return Number(minor);
}

// ---------------------------------------------------------------------------------------------------------------

export class GreenfieldClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;

  constructor(
    private readonly config: ClientConfig,
    options: ClientOptions = {},
  ) {
    this.base = config.url.endsWith('/') ? config.url.slice(0, -1) : config.url;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = options.attempts ?? 3;
    this.backoffMs = options.backoffMs ?? 300;
  }

  private get store() {
    return `/api/v1/stores/${encodeURIComponent(this.config.storeId)}`;
  }

  /** Runs `attempt` until it succeeds, a GreenfieldError (4xx) is thrown, or the attempts run out. */
  async withRetries<T>(attempt: () => Promise<T>): Promise<T> {
    let last: unknown;
    for (let n = 1; n <= this.attempts; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        last = error.cause ?? error;
        if (n < this.attempts) await new Promise((resolve) => setTimeout(resolve, this.backoffMs * n));
      }
    }
    throw new ProviderUnavailable(BTCPAY, last);
  }

  /** One attempt of one call. */
  private async send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `token ${this.config.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new Retryable(`${method} ${path}: no answer`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new Retryable(`${method} ${path}: answer cut`, { cause: error });
    }
    if (response.status >= 500) throw new Retryable(`${method} ${path}: ${response.status}`, { cause: new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`) });
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      if (response.ok) throw new Retryable(`${method} ${path}: not JSON`, { cause: new Error(text.slice(0, 200)) });
    }
    if (!response.ok) {
      const code = Array.isArray(parsed) ? 'validation' : typeof (parsed as { code?: unknown } | null)?.code === 'string' ? (parsed as { code: string }).code : `http-${response.status}`;
      throw new GreenfieldError(response.status, code, parsed);
    }
    return parsed as T;
  }

  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return this.withRetries(() => this.send<T>(method, path, body));
  }

  /** GET, with a 404 read as null. */
  private async find<T>(path: string): Promise<T | null> {
    try {
      return await this.call<T>('GET', path);
    } catch (error) {
      if (error instanceof GreenfieldError && error.status === 404) return null;
      throw error;
    }
  }

  getInvoice(invoiceId: string): Promise<InvoiceData | null> {
    return this.find(`${this.store}/invoices/${encodeURIComponent(invoiceId)}`);
  }

  getPaymentMethods(invoiceId: string): Promise<InvoicePaymentMethod[] | null> {
    return this.find(`${this.store}/invoices/${encodeURIComponent(invoiceId)}/payment-methods`);
  }

  /** One page of the store's invoices created in [startDate, endDate] (unix seconds, both included), newest first. */
  listInvoices(startDate: number, endDate: number, skip: number, take: number): Promise<InvoiceData[]> {
    return this.call('GET', `${this.store}/invoices?startDate=${startDate}&endDate=${endDate}&skip=${skip}&take=${take}`);
  }

  /** Invoices whose metadata.orderId is this (Greenfield's indexed `orderId` filter). */
  findInvoicesByOrderId(orderId: string): Promise<InvoiceData[]> {
    return this.call('GET', `${this.store}/invoices?orderId=${encodeURIComponent(orderId)}`);
  }

  /**
   * Creates an invoice at most once per metadata.orderId: Greenfield has no idempotency key, so each attempt first
   * looks for an invoice of this order that `reuse` accepts, and only then creates one. A create whose answer was
   * lost is found by the next attempt instead of being made twice. The POST itself is never repeated blindly.
   */
  createInvoiceOnce(request: CreateInvoiceRequest, reuse: (invoice: InvoiceData) => boolean): Promise<InvoiceData> {
    return this.withRetries(async () => {
      const found = await this.send<InvoiceData[]>('GET', `${this.store}/invoices?orderId=${encodeURIComponent(request.metadata.orderId)}`);
      const live = found.find((invoice) => invoice.metadata?.orderId === request.metadata.orderId && reuse(invoice));
      if (live) return live;
      return this.send<InvoiceData>('POST', `${this.store}/invoices`, request);
    });
  }

  /** The store's payouts (cancelled ones too when asked). */
  listPayouts(includeCancelled = true): Promise<PayoutData[]> {
    return this.call('GET', `${this.store}/payouts?includeCancelled=${includeCancelled}`);
  }

  getPayout(payoutId: string): Promise<PayoutData | null> {
    return this.find(`${this.store}/payouts/${encodeURIComponent(payoutId)}`);
  }

  /** A store payout, at most once per `metadata[key] = value` (found again among the store's payouts). */
  createPayoutOnce(request: CreatePayoutRequest, key: string, value: string): Promise<PayoutData> {
    return this.withRetries(async () => {
      const all = await this.send<PayoutData[]>('GET', `${this.store}/payouts?includeCancelled=true`);
      const found = all.find((payout) => payout.metadata?.[key] === value);
      if (found) return found;
      return this.send<PayoutData>('POST', `${this.store}/payouts`, { ...request, metadata: { ...request.metadata, [key]: value } });
    });
  }
}
