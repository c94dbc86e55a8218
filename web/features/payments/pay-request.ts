import { ofetch } from 'ofetch';
import type { ApiError } from '#contract/api';
import { MESSAGES } from '#contract/messages';
import type { PayResult, TopUpResult } from '#contract/payments';
import { routeOf } from '#contract/routes';
import { apiBaseUrl } from '../../lib/api.ts';
import { getToken } from '../../lib/token.ts';

// The payment page's one request of its own, paying with an attempt's Idempotency-Key; and the finance page's top-up.

export type PayAnswer = { data: { result: PayResult }; error?: undefined } | { data?: undefined; error: ApiError };

/**
 * POST /api/payments/pay with the attempt's Idempotency-Key. Sent here rather than by api.write, whose client takes
 * no headers: the guests' shared transport stays as small as it is.
 */
export function payOnce(body: Record<string, string>, key: string): Promise<PayAnswer> {
  return sendOnce<PayResult>('payments.pay', body, key);
}

export type TopUpAnswer = { data: { result: TopUpResult }; error?: undefined } | { data?: undefined; error: ApiError };

/** POST /api/payments/top-up (ADR 062) with the attempt's Idempotency-Key, as paying. */
export function topUpOnce(body: { amount: number; method: string }, key: string): Promise<TopUpAnswer> {
  return sendOnce<TopUpResult>('payments.topUp', body, key);
}

async function sendOnce<R>(
  route: 'payments.pay' | 'payments.topUp',
  body: Record<string, unknown>,
  key: string,
): Promise<{ data: { result: R }; error?: undefined } | { data?: undefined; error: ApiError }> {
  const { method, path } = routeOf(route);
  const token = getToken();
  try {
    const data = await ofetch<{ result: R }>(path, {
      baseURL: apiBaseUrl(),
      method,
      body,
      retry: 0,
      headers: { 'Idempotency-Key': key, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { data };
  } catch (err) {
    const e = err as { data?: Partial<ApiError>; status?: number; statusCode?: number };
    return { error: { status: e.data?.status ?? e.statusCode ?? e.status ?? 0, message: e.data?.message ?? MESSAGES.unexpected, errors: e.data?.errors } };
  }
}

/** A fresh Idempotency-Key (crypto.randomUUID needs a secure context: a fallback for plain-HTTP previews). */
export function newIdempotencyKey(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}
