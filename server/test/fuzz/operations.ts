import { z } from 'zod';
import { ROUTES, routeOf, type RouteName } from '#contract/routes';
import type { EndpointDef } from '#contract/endpoint';
import { endpoints } from '#contract/endpoints';
import type { JsonSchema } from './schema.ts';
import type { RegisteredRoute } from './world.ts';

// The operations to fuzz: every endpoint of ROUTES (contract/routes.ts), with the schemas of the contract's table
// (contract/endpoints.ts) where the endpoint is in it, else those the app's OpenAPI document shows; and the routes
// Fastify registered outside ROUTES (docs, sitemaps, the /api/* catch-all), by path.

export interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
  /** The endpoint's name in ROUTES; none for a route outside it. */
  name?: RouteName;
  /** Where its schemas come from: the contract's table, the OpenAPI document, or nowhere (generic junk only). */
  source: 'contract' | 'openapi' | 'none';
  /** The contract's schemas, to tell whether a generated request is one the contract refuses. */
  contract?: Pick<EndpointDef, 'params' | 'query' | 'body'>;
  method: string;
  /** As the OpenAPI document writes it: /api/services/{id}. */
  path: string;
  pathParams: Param[];
  query: Param[];
  body?: JsonSchema;
  multipart: boolean;
  /** Described in the OpenAPI document (hidden and non-API routes are fuzzed by path and query only). */
  documented: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** One spelling for a route of Fastify (/a/:id, /a/*) and of OpenAPI (/a/{id}, /a/{*}), trailing slash ignored. */
export const routeKey = (method: string, url: string) =>
  `${method.toUpperCase()} ${url.replace(/\{([^{}]+)\}/g, (_, name: string) => (name === '*' ? '*' : `:${name}`)).replace(/(.)\/$/, '$1')}`;

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export function operationsOf(doc: OpenApiDocument, routes: RegisteredRoute[]): Operation[] {
  const byKey = new Map(routes.map((r) => [routeKey(r.method, r.url), r]));
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const params = op.parameters ?? [];
      const route = byKey.get(routeKey(method, path));
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {}, required: true })),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: content['application/json']?.schema,
        multipart: Boolean(content['multipart/form-data']) || (route?.consumes ?? []).includes('multipart/form-data'),
        documented: true,
        source: 'openapi',
      });
    }
  }
  return ops;
}

/** Routes the document does not describe, as operations with their path parameters only. */
export function undocumentedOperations(doc: OpenApiDocument, routes: RegisteredRoute[]): Operation[] {
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => routeKey(m, path))));
  const seen = new Set<string>();
  const ops: Operation[] = [];
  for (const r of routes) {
    const key = routeKey(r.method, r.url);
    if (documented.has(key) || seen.has(key)) continue;
    seen.add(key);
    const path = r.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
    const names = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
    ops.push({
      method: r.method,
      path,
      pathParams: names.map((name) => ({ name, schema: { type: 'string' }, required: true })),
      query: [],
      multipart: r.consumes.includes('multipart/form-data'),
      documented: false,
      source: 'none',
    });
  }
  return ops;
}

/** The JSON schema of a contract's zod schema, as a client sends it (before transforms and defaults). */
const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' }) as JsonSchema;

/** The properties of an object schema as parameters (the contract's params and query are objects). */
function paramsOf(schema: z.ZodType | undefined): Param[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, sub]) => ({ name, schema: sub, required: required.has(name) }));
}

/** A path of ROUTES as OpenAPI writes it: /api/services/{id}, /uploads/{*}. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

/**
 * Every endpoint of ROUTES as an operation, from the registered routes (`all`: operationsOf() and
 * undocumentedOperations() of the app): the contract's schemas where the endpoint is in its table. `missing` are
 * names no registered route answers; `outside` the registered routes that are not in ROUTES.
 */
export function routeOperations(all: Operation[]): { ops: Operation[]; missing: RouteName[]; outside: Operation[] } {
  const byKey = new Map(all.map((op) => [routeKey(op.method, op.path), op]));
  const table = endpoints as Partial<Record<RouteName, EndpointDef>>;
  const ops: Operation[] = [];
  const missing: RouteName[] = [];
  const claimed = new Set<string>();
  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const { method, path } = routeOf(name);
    const key = routeKey(method, path);
    const registered = byKey.get(key);
    if (!registered) {
      missing.push(name);
      continue;
    }
    claimed.add(key);
    const def = table[name];
    if (!def) {
      ops.push({ ...registered, name, path: openApiPath(path) });
      continue;
    }
    const params = paramsOf(def.params);
    ops.push({
      name,
      source: 'contract',
      contract: { params: def.params, query: def.query, body: def.body },
      method,
      path: openApiPath(path),
      // A path parameter the contract does not describe (none should) keeps the route's plain string.
      pathParams: registered.pathParams.map((p) => params.find((q) => q.name === p.name) ?? p),
      query: paramsOf(def.query),
      body: def.body ? jsonSchemaOf(def.body) : undefined,
      multipart: def.multipart === true || registered.multipart,
      documented: true,
    });
  }
  const outside = all.filter((op) => !claimed.has(routeKey(op.method, op.path)));
  return { ops, missing, outside };
}
