import { ofetch, type FetchOptions } from 'ofetch';
import type { ApiError } from '#contract/api';
import type { EndpointAnswer, EndpointInput } from '#contract/endpoint';
import type { Endpoints } from '#contract/endpoints';
import { pathFor, routeOf, type ReadName, type WriteName } from '#contract/routes';
import { MESSAGES } from '#contract/messages';
import { getToken } from './token.ts';
import { progressStore as progress } from './progress-store.ts';

// SPEC §7: calls go to apiBase with the bearer token; GETs are cached by method, path and query and
// retried once (ofetch's default: GET only, on 408/409/425/429/500/502/503/504); other methods are
// never retried and return their error instead of throwing.

let apiBase = '';
export const setApiBase = (base: string) => void (apiBase = base);
/** Where the API is ('' for this origin), for the calls that cannot go through the client (uploads). */
export const apiBaseUrl = () => apiBase;

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

type Query = Record<string, string | number | boolean | undefined>;
/** A change's outcome: the whole answer, or the error. */
export type Sent<A> = { data: A; error?: undefined } | { data?: undefined; error: ApiError };

const cache = new Map<string, Promise<unknown>>();
const keyOf = (path: string, query?: Query) =>
  `GET ${path}?${new URLSearchParams(
    Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  )}`;

function toError(err: unknown): ApiError {
  const e = err as { data?: Partial<ApiError>; status?: number; statusCode?: number };
  return {
    status: e.data?.status ?? e.statusCode ?? e.status ?? 0,
    message: e.data?.message ?? MESSAGES.unexpected,
    errors: e.data?.errors,
  };
}

type Known = keyof Endpoints;
/** An upload's body is the form itself (multipart/form-data, the contract's `multipart`), not JSON. */
type Input<N extends Known> = EndpointInput<Endpoints[N]> &
  (Endpoints[N] extends { multipart: true } ? { body: FormData } : unknown);
type Answer<N extends Known> = EndpointAnswer<Endpoints[N]>;
/** Input for endpoints that take none may be left out. */
type InputArg<N extends Known> = Record<never, never> extends Input<N> ? [input?: Input<N>] : [input: Input<N>];
type AnyInput = { params?: Record<string, string | number>; query?: Query; body?: unknown };

function target(name: Known, input: AnyInput | undefined) {
  const { method, path } = routeOf(name);
  return { method, path: pathFor(path, input?.params) };
}

/** A cached GET: the same path and query share one request until it fails or `fresh` asks again. */
function cachedGet(path: string, query: Query | undefined, fresh: boolean): Promise<unknown> {
  const key = keyOf(path, query);
  if (!fresh && cache.has(key)) return cache.get(key)!;
  const request = client(path, { baseURL: apiBase, query }).catch((err: unknown) => {
    cache.delete(key);
    throw toError(err);
  });
  cache.set(key, request);
  return request;
}

export const api = {
  /**
   * A read by the contract's name (ADR 015), e.g. `api.read('services.get', { params: { id } })`: cached by path
   * and query, retried once, throws an ApiError on failure; `fresh` bypasses and refreshes the cache.
   */
  read<N extends ReadName & Known>(
    name: N,
    ...[input, opts]: [...InputArg<N>, opts?: { fresh?: boolean }]
  ): Promise<Answer<N>> {
    const { path } = target(name, input as AnyInput);
    return cachedGet(
      path,
      (input as AnyInput | undefined)?.query,
      (opts as { fresh?: boolean } | undefined)?.fresh ?? false,
    ) as Promise<Answer<N>>;
  },
  /** A change by the contract's name: never retried, resolves with the answer or the error. */
  async write<N extends WriteName & Known>(name: N, ...[input]: InputArg<N>): Promise<Sent<Answer<N>>> {
    const { method, path } = target(name, input as AnyInput);
    const { body, query } = (input ?? {}) as AnyInput;
    try {
      const data = await client<Answer<N>>(path, {
        baseURL: apiBase,
        method,
        body: body as FetchOptions['body'],
        query,
        retry: 0,
      });
      return { data };
    } catch (err) {
      return { error: toError(err) };
    }
  },
  /** A read as the user types (suggestions): not cached, never retried, and no progress bar. */
  readInBackground<N extends ReadName & Known>(name: N, input: Input<N>, signal: AbortSignal): Promise<Answer<N>> {
    const { path } = target(name, input as AnyInput);
    return ofetch<Answer<N>>(path, { baseURL: apiBase, query: (input as AnyInput).query, signal, retry: 0 });
  },
  clearCache: () => cache.clear(),
};
