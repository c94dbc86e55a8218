import type { JsonSchema } from './schema.ts';
import type { RegisteredRoute } from './world.ts';

// The operations to fuzz, read from the app's OpenAPI document; the routes Fastify registered tell what the
// document leaves out.

export interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
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
    });
  }
  return ops;
}
