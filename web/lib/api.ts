import type { ApiError } from '#contract/api';
import type { EndpointAnswer, EndpointInput } from '#contract/endpoint';
import type { Endpoints } from '#contract/endpoints';
import type { ReadName, WriteName } from '#contract/routes';
import type { AnyInput, Query } from './api-client.ts';

// SPEC §7: calls go to apiBase with the bearer token; GETs are cached by method, path and query and
// retried once (ofetch's default: GET only, on 408/409/425/429/500/502/503/504); other methods are
// never retried and return their error instead of throwing.
// The transport (ofetch, the route table) is imported on the first call: a guest who only browses never loads it.

/** The transport module, imported once. */
const transport = () => import('./api-client.ts');

let apiBase = '';
export const setApiBase = (base: string) => void (apiBase = base);
/** Where the API is ('' for this origin), for the calls that cannot go through the client (uploads). */
export const apiBaseUrl = () => apiBase;

/** A change's outcome: the whole answer, or the error. */
export type Sent<A> = { data: A; error?: undefined } | { data?: undefined; error: ApiError };

const cache = new Map<string, Promise<unknown>>();
const queryKey = (query?: Query) =>
  `${new URLSearchParams(
    Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  )}`;

type Known = keyof Endpoints;
/** An upload's body is the form itself (multipart/form-data, the contract's `multipart`), not JSON. */
type Input<N extends Known> = EndpointInput<Endpoints[N]> &
  (Endpoints[N] extends { multipart: true } ? { body: FormData } : unknown);
type Answer<N extends Known> = EndpointAnswer<Endpoints[N]>;
/** Input for endpoints that take none may be left out. */
type InputArg<N extends Known> = Record<never, never> extends Input<N> ? [input?: Input<N>] : [input: Input<N>];

/** A cached GET: the same path and query share one request until it fails or `fresh` asks again. */
function cachedGet(name: Known, input: AnyInput | undefined, fresh: boolean): Promise<unknown> {
  const query = input?.query;
  // The route's name and parameters stand for its path, which the transport computes.
  const key = `${name} ${JSON.stringify(input?.params ?? {})}?${queryKey(query)}`;
  if (!fresh && cache.has(key)) return cache.get(key)!;
  const request = transport().then(({ get, target, toError }) =>
    get(target(name, input).path, apiBase, query).catch((err: unknown) => {
      cache.delete(key);
      throw toError(err);
    }),
  );
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
    const fresh = (opts as { fresh?: boolean } | undefined)?.fresh ?? false;
    return cachedGet(name, input as AnyInput | undefined, fresh) as Promise<Answer<N>>;
  },
  /** A change by the contract's name: never retried, resolves with the answer or the error. */
  async write<N extends WriteName & Known>(name: N, ...[input]: InputArg<N>): Promise<Sent<Answer<N>>> {
    const { send, target, toError } = await transport();
    try {
      const { method, path } = target(name, input as AnyInput);
      const data = await send<Answer<N>>(path, apiBase, method, (input ?? {}) as AnyInput);
      return { data };
    } catch (err) {
      return { error: toError(err) };
    }
  },
  /** A read as the user types (suggestions): not cached, never retried, and no progress bar. */
  async readInBackground<N extends ReadName & Known>(name: N, input: Input<N>, signal: AbortSignal): Promise<Answer<N>> {
    const { getInBackground, target } = await transport();
    return getInBackground<Answer<N>>(target(name, input as AnyInput).path, apiBase, (input as AnyInput).query, signal);
  },
  clearCache: () => cache.clear(),
};
