import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderUnavailable } from '../provider.ts';

// ЮKassa's API v3 over HTTP (https://yookassa.ru/developers/api): JSON, HTTP Basic `shopId:secretKey`, and an
// `Idempotence-Key` on every POST, so that a retry of a call whose answer was lost is the same call. Its answers:
// 200 with the object; 202 `{type: 'processing', retry_after}` while it is still working on a key (ask again with
// the same key); 4xx `{type: 'error', code, description}` for a request it will never accept; 5xx to retry.

export interface YookassaConfig {
  shopId: string;
  secretKey: string;
  /** `https://api.yookassa.ru/v3` unless a test points it at the fake. */
  apiUrl: string;
  /** Networks webhooks may come from (ЮKassa signs none): CIDRs or addresses. */
  webhookIps: readonly string[];
}

export interface YookassaAmount {
  value: string;
  currency: string;
}

export interface YookassaPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: YookassaAmount;
  confirmation?: { type: string; confirmation_url?: string };
  created_at: string;
  description?: string;
  metadata?: Record<string, string>;
  deal?: { id: string; settlements?: unknown[] };
  cancellation_details?: { party: string; reason: string };
}

/** A page of a list (https://yookassa.ru/developers/using-api/lists). */
export interface YookassaList<T> {
  type: 'list';
  items: T[];
  next_cursor?: string;
}

/** The largest page ЮKassa gives. */
export const LIST_LIMIT = 100;

export interface YookassaDeal {
  id: string;
  status: 'opened' | 'closed';
  balance: YookassaAmount;
  /** What is left to pay the seller out of it. */
  payout_balance?: YookassaAmount;
  /** When ЮKassa closes it by itself and returns its balance to the payer (the shop's deal lifetime, ≤ 180 days). */
  expires_at?: string;
}

/** A payout (https://yookassa.ru/developers/api#payout_object): to a card by its token, or to a ЮMoney wallet. */
export interface YookassaPayout {
  id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: YookassaAmount;
  payout_destination?: { type: string; card?: { first6: string; last4: string; card_type: string }; account_number?: string };
  description?: string;
  created_at: string;
  metadata?: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
  self_employed?: { id: string };
  /** The safe deal it was made out of (a seller's share, ADR 053), if any. */
  deal?: { id: string };
  receipt?: { service_name: string; npd_receipt_id?: string; url?: string };
  test?: boolean;
}

/** A self-employed person registered for receipts in «Мой налог» (https://yookassa.ru/developers/api#self_employed_object). */
export interface YookassaSelfEmployed {
  id: string;
  status: 'pending' | 'confirmed' | 'canceled' | 'unregistered';
  created_at: string;
  itn?: string;
  phone?: string;
  confirmation?: { type: 'redirect'; confirmation_url: string };
  test?: boolean;
}

/** A request ЮKassa refused (4xx): retrying it would not help. */
export class YookassaError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
  ) {
    super(`ЮKassa ${status} ${code}: ${description}`);
  }
}

export interface CallOptions {
  /** One call's time limit. */
  timeoutMs?: number;
  /** Calls in all, the first included. */
  attempts?: number;
  /** Wait before the second attempt; doubled for each next one. */
  backoffMs?: number;
}

const DEFAULTS: Required<CallOptions> = { timeoutMs: 10_000, attempts: 3, backoffMs: 500 };
/** The longest wait a 202's retry_after is followed for (it is in milliseconds). */
const MAX_RETRY_AFTER_MS = 5_000;

export class YookassaClient {
  private readonly auth: string;
  readonly options: Required<CallOptions>;

  constructor(
    private readonly config: YookassaConfig,
    options: CallOptions = {},
  ) {
    this.auth = `Basic ${Buffer.from(`${config.shopId}:${config.secretKey}`).toString('base64')}`;
    this.options = { ...DEFAULTS, ...options };
  }

  createDeal(idempotenceKey: string, body: object) {
    return this.call<YookassaDeal>('POST', '/deals', body, idempotenceKey);
  }

  /** A deal of this shop (https://yookassa.ru/developers/api#get_deal), or null when ЮKassa knows none by that id. */
  getDeal(id: string): Promise<YookassaDeal | null> {
    return this.orNull(this.call<YookassaDeal>('GET', `/deals/${encodeURIComponent(id)}`));
  }

  createPayment(idempotenceKey: string, body: object) {
    return this.call<YookassaPayment>('POST', '/payments', body, idempotenceKey);
  }

  /** A payment of this shop, or null when ЮKassa knows none by that id (not ours, or made up). */
  async getPayment(id: string): Promise<YookassaPayment | null> {
    try {
      return await this.call<YookassaPayment>('GET', `/payments/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof YookassaError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  }

  /** A payout (the payouts gateway's credentials): retried under the same key, it is the same payout. */
  createPayout(idempotenceKey: string, body: object) {
    return this.call<YookassaPayout>('POST', '/payouts', body, idempotenceKey);
  }

  /** A payout of this gateway, or null when ЮKassa knows none by that id. */
  getPayout(id: string): Promise<YookassaPayout | null> {
    return this.orNull(this.call<YookassaPayout>('GET', `/payouts/${encodeURIComponent(id)}`));
  }

  /**
   * One page of the payouts gateway's payouts created in [from, to), newest first (https://yookassa.ru/developers/api#get_payouts_list):
   * `created_at.gte|gt|lte|lt`, `status`, `payout_destination.type`, `limit` 1–100, `cursor`; `next_cursor` is absent on the last.
   */
  listPayouts(from: Date, to: Date, cursor?: string, limit = LIST_LIMIT): Promise<YookassaList<YookassaPayout>> {
    const query = new URLSearchParams({ 'created_at.gte': from.toISOString(), 'created_at.lt': to.toISOString(), limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return this.call<YookassaList<YookassaPayout>>('GET', `/payouts?${query}`);
  }

  createSelfEmployed(idempotenceKey: string, body: object) {
    return this.call<YookassaSelfEmployed>('POST', '/self_employed', body, idempotenceKey);
  }

  getSelfEmployed(id: string): Promise<YookassaSelfEmployed | null> {
    return this.orNull(this.call<YookassaSelfEmployed>('GET', `/self_employed/${encodeURIComponent(id)}`));
  }

  private async orNull<T>(call: Promise<T>): Promise<T | null> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof YookassaError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  }

  /** One page of the shop's payments created in [from, to), newest first; `next_cursor` is absent on the last. */
  listPayments(from: Date, to: Date, cursor?: string): Promise<YookassaList<YookassaPayment>> {
    const query = new URLSearchParams({ 'created_at.gte': from.toISOString(), 'created_at.lt': to.toISOString(), limit: String(LIST_LIMIT) });
    if (cursor) query.set('cursor', cursor);
    return this.call<YookassaList<YookassaPayment>>('GET', `/payments?${query}`);
  }

  /** One API call, retried with the same key on a timeout, a network error, a 5xx or a 202. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: object, idempotenceKey?: string): Promise<T> {
    const { attempts, timeoutMs, backoffMs } = this.options;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      let res: Response;
      try {
        res = await fetch(`${this.config.apiUrl}${path}`, {
          method,
          headers: {
            authorization: this.auth,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        lastError = error; // A timeout or a broken connection: the same key again.
        continue;
      }
      const answer = (await res.json().catch(() => null)) as { type?: string; code?: string; description?: string; retry_after?: number } | null;
      if (res.status === 200) return answer as T;
      if (res.status === 202) {
        lastError = new Error('ЮKassa is still processing the request');
        await sleep(Math.min(Number(answer?.retry_after) || backoffMs, MAX_RETRY_AFTER_MS));
        continue;
      }
      if (res.status >= 500 || res.status === 429) {
        lastError = new Error(`ЮKassa answered ${res.status}`);
        continue;
      }
      throw new YookassaError(res.status, answer?.code ?? 'unknown', answer?.description ?? '');
    }
    throw new ProviderUnavailable('yookassa', lastError);
  }
}

/** "1234.50" → 123450 kopecks; null for anything that is not a ruble amount (linear-time pattern). */
export function toKopecks(value: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** 123450 kopecks → "1234.50". */
export function fromKopecks(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}
