import type { z } from 'zod';
import type { RouteName } from './routes.ts';

/**
 * The guard a route keeps (ADR 015): who may call it at all. Whether this person may touch this resource is the
 * module's policy (server/modules/<domain>/policy.ts), not the route's.
 * - public: anyone, signed in or not;
 * - user: a signed-in member (401 without);
 * - confirmed: a member whose email is confirmed (403 with the reason, PRODUCT.md);
 * - admin: an administrator (403).
 */
export type Access = 'public' | 'user' | 'confirmed' | 'admin';

/** One endpoint's schemas: the server validates with them, the web's client and the tests derive from them. */
export interface EndpointDef {
  access: Access;
  /** OpenAPI grouping. */
  tags: readonly string[];
  /** OpenAPI's one-line description. */
  summary?: string;
  /** OpenAPI's description of the operation, when its name and schemas do not say enough. */
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A multipart/form-data body, read by the handler (uploads): no JSON schema. */
  multipart?: true;
  /** The 200 answer (SPEC §7 envelope included); absent for an answer that is not JSON (a file). */
  response?: z.ZodType;
}

/** A domain's endpoints, keyed by their names in ROUTES (a name ROUTES does not know is a type error). */
export const defineEndpoints = <const T extends { [N in RouteName]?: EndpointDef }>(table: T & Record<Exclude<keyof T, RouteName>, never>): T => table;

type Field<E, K extends string> = E extends Record<K, infer S extends z.ZodType> ? S : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller sends: only the parts the endpoint has. */
export type EndpointInput<E> = {
  [K in 'params' | 'query' | 'body' as Field<E, K> extends undefined ? never : K]: InputOf<Field<E, K>>;
};
/** What a handler receives, after validation. */
export type EndpointParsed<E> = {
  params: OutputOf<Field<E, 'params'>>;
  query: OutputOf<Field<E, 'query'>>;
  body: OutputOf<Field<E, 'body'>>;
};
/** What a handler returns (before the response schema strips it) and what a caller receives. */
export type EndpointResult<E> = InputOf<Field<E, 'response'>>;
export type EndpointAnswer<E> = OutputOf<Field<E, 'response'>>;
