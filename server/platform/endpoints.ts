import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ReadAnswer } from '#contract/ssr';
import type { EndpointDef, EndpointParsed, EndpointResult } from '#contract/endpoint';
import { endpoints, type EndpointName, type Endpoints } from '#contract/endpoints';
import { routeOf, type ReadName } from '#contract/routes';
import { MESSAGES } from '#contract/messages';
import { STEP_UP_COOKIE, STEP_UP_HEADER } from '#contract/two-factor';
import type { UserRow } from '../modules/users/schema.ts';
import { HttpError, badRequest } from '../lib/http.ts';
import { requireAdmin, requireConfirmed, requireUser } from '../lib/auth.ts';
import { normaliseStrings } from '../lib/text.ts';

// Routes are registered from the contract's table (ADR 015): the name gives the method and path (contract/routes.ts),
// the table the schemas and the guard (contract/endpoints/*). A handler gets the validated input and the caller,
// not Fastify's request, so the same function answers HTTP and the server-rendered pages' in-process reads.

type Access<N extends EndpointName> = Endpoints[N]['access'];
/** The caller: signed in for every guarded endpoint, maybe a guest on a public one. */
export interface Caller<U extends UserRow | null = UserRow | null> {
  user: U;
  /** The visitor's address (behind TRUST_PROXY, the client's). */
  ip: string;
  /** The browser's User-Agent, when it sent one (a consent records it, ADR 052). */
  userAgent?: string | null;
  /** The session of the caller's token (ADR 055): null for guests and tokens signed before sessions. */
  sessionId?: string | null;
  /** A step-up confirmation of the last minutes (ADR 054): the X-Step-Up header, else the step_up cookie. */
  stepUp?: string | null;
}
export type HandlerInput<N extends EndpointName> = EndpointParsed<Endpoints[N]> &
  Caller<Access<N> extends 'public' ? UserRow | null : UserRow>;
export type Handler<N extends EndpointName> = (input: HandlerInput<N>) => Promise<EndpointResult<Endpoints[N]>>;
/** A handler that writes the reply itself (a pre-serialised answer, a stream, an upload): HTTP only. */
export type RawHandler<N extends EndpointName> = (
  input: HandlerInput<N>,
  http: { request: FastifyRequest; reply: FastifyReply },
) => Promise<unknown>;

/**
 * A route's own Fastify options beyond what the table gives (hooks such as onRequest, preValidation or onError,
 * bodyLimit, config): spread into the route as they are.
 */
export type RouteExtras = Omit<RouteOptions, 'method' | 'url' | 'schema' | 'handler'>;

/** The handlers of the GET endpoints, for the pages' in-process reads. */
export type ReadHandlers = Map<EndpointName, Handler<EndpointName>>;

function guard(access: EndpointDef['access'], request: FastifyRequest): UserRow | null {
  switch (access) {
    case 'public':
      return request.user;
    case 'user':
      return requireUser(request);
    case 'confirmed':
      return requireConfirmed(request);
    case 'admin':
      return requireAdmin(request);
  }
}

function schemaOf(def: EndpointDef) {
  return {
    tags: [...def.tags],
    ...(def.summary ? { summary: def.summary } : {}),
    ...(def.multipart ? { consumes: ['multipart/form-data'] } : {}),
    ...(def.description ? { description: def.description } : {}),
    ...(def.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { querystring: def.query } : {}),
    ...(def.body ? { body: def.body } : {}),
    ...(def.response ? { response: { 200: def.response } } : {}),
  };
}

/** The step-up confirmation a request carries, if any (ADR 054). */
function stepUpOf(request: FastifyRequest): string | null {
  const header = request.headers[STEP_UP_HEADER];
  if (typeof header === 'string' && header) return header;
  return request.cookies?.[STEP_UP_COOKIE] || null;
}

/**
 * The registrar of one module's routes: `on(name, handler)` for a JSON answer, `raw(name, handler)` when the
 * handler writes the reply. Every endpoint of the table is registered once, by whichever module owns it. The
 * optional `extras` are the route's own Fastify options (hooks, limits, onError). The guard of `access` runs in
 * the handler, after validation: a route that must refuse a guest before validating adds a hook for it.
 */
export function endpointsOf(app: FastifyInstance, reads: ReadHandlers) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const register = <N extends EndpointName>(
    name: N,
    handle: (request: FastifyRequest, reply: FastifyReply, user: UserRow | null) => Promise<unknown>,
    extras: RouteExtras = {},
  ) => {
    const def: EndpointDef = endpoints[name];
    const { method, path } = routeOf(name);
    // The guard runs before validation: a guest is told to sign in (401), not that the body is wrong (400).
    const guardFirst = async (request: FastifyRequest) => void guard(def.access, request);
    const own = extras.preValidation;
    typed.route({
      ...(extras as object),
      method,
      url: path,
      schema: schemaOf(def),
      preValidation: own ? [guardFirst, ...(Array.isArray(own) ? own : [own])] : guardFirst,
      handler: (request, reply) => handle(request, reply, guard(def.access, request)),
    });
  };
  const inputOf = (request: FastifyRequest, user: UserRow | null) =>
    ({
      params: request.params,
      query: request.query,
      body: request.body,
      user,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      sessionId: request.sessionId ?? null,
      stepUp: stepUpOf(request),
    }) as never;
  return {
    on<N extends EndpointName>(name: N, handler: Handler<N>, extras?: RouteExtras) {
      register(name, (request, _reply, user) => handler(inputOf(request, user)), extras);
      if (routeOf(name).method === 'GET') reads.set(name, handler as unknown as Handler<EndpointName>);
    },
    raw<N extends EndpointName>(name: N, handler: RawHandler<N>, extras?: RouteExtras) {
      register(name, (request, reply, user) => handler(inputOf(request, user), { request, reply }), extras);
    },
  };
}

/**
 * A GET endpoint called in process for a server-rendered page (ADR 015): the same guard, normalisation,
 * validation, handler and response schema as over HTTP, without a second trip through Fastify and JSON.
 */
export function createReader(reads: ReadHandlers, log: Logger) {
  return async function read<N extends ReadName>(
    name: N,
    input: { params?: Record<string, unknown>; query?: Record<string, unknown> },
    caller: Caller,
  ): Promise<ReadAnswer<unknown>> {
    const def = (endpoints as Record<string, EndpointDef>)[name];
    const handler = reads.get(name as EndpointName);
    if (!def) throw new Error(`${name} is not in the endpoint table`);
    if (!handler) throw new Error(`${name} has no in-process handler`);
    try {
      const user = guard(def.access, { user: caller.user } as FastifyRequest);
      const parse = (schema: z.ZodType | undefined, value: unknown) => {
        if (!schema) return undefined;
        const parsed = schema.safeParse(normaliseStrings(value ?? {}));
        if (!parsed.success) throw badRequest(MESSAGES.validation);
        return parsed.data;
      };
      const result = await handler({
        params: parse(def.params, input.params),
        query: parse(def.query, input.query),
        body: undefined,
        user,
        ip: caller.ip,
        userAgent: caller.userAgent ?? null,
        sessionId: caller.sessionId ?? null,
      } as never);
      return { ok: true, status: 200, body: def.response ? def.response.parse(result) : result };
    } catch (err) {
      if (err instanceof HttpError)
        return {
          ok: false,
          status: err.statusCode,
          body: { status: err.statusCode, message: err.message, errors: err.errors },
        };
      log.error({ err, endpoint: name }, 'in-process read failed');
      return { ok: false, status: 500, body: { status: 500, message: MESSAGES.internal } };
    }
  };
}
