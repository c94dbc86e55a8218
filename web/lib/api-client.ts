import { ofetch, type FetchOptions } from 'ofetch';
import type { ApiError } from '#contract/api';
import { pathFor, routeOf } from '#contract/routes';
import { MESSAGES } from '#contract/messages';
import { getToken } from './token.ts';
import { progressStore as progress } from './progress-store.ts';

// The API client's transport (web/lib/api.ts loads it on the first call): ofetch and the route table stay off the
// pages of a guest, who calls no API until they search, filter or sign in (issue 11).

export type Query = Record<string, string | number | boolean | undefined>;
export type AnyInput = { params?: Record<string, string | number>; query?: Query; body?: unknown };

const client = ofetch.create({
  onRequest({ options }) {
    progress.start();
    const token = getToken();
    if (token) {
      const headers = new Headers(options.headers);
      headers.set('authorization', `Bearer ${token}`);
      options.headers = headers;
    }
  },
  onResponse: () => progress.done(),
  onRequestError: () => progress.done(),
});

export function toError(err: unknown): ApiError {
  const e = err as { data?: Partial<ApiError>; status?: number; statusCode?: number };
  return {
    status: e.data?.status ?? e.statusCode ?? e.status ?? 0,
    message: e.data?.message ?? MESSAGES.unexpected,
    errors: e.data?.errors,
    ...(typeof e.data?.code === 'string' ? { code: e.data.code } : {}),
  };
}

export function target(name: string, input: AnyInput | undefined) {
  const { method, path } = routeOf(name as Parameters<typeof routeOf>[0]);
  return { method, path: pathFor(path, input?.params) };
}

export const get = (path: string, baseURL: string, query: Query | undefined) => client(path, { baseURL, query });

export const send = <A>(path: string, baseURL: string, method: string, input: AnyInput) =>
  client<A>(path, { baseURL, method, body: input.body as FetchOptions['body'], query: input.query, retry: 0 });

export const getInBackground = <A>(path: string, baseURL: string, query: Query | undefined, signal: AbortSignal) =>
  ofetch<A>(path, { baseURL, query, signal, retry: 0 });
