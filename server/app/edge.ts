import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Env } from '../env.ts';
import type { Db } from '../db/client.ts';
import { forbidden } from '../lib/http.ts';
import { normaliseStrings } from '../lib/text.ts';
import { compressBufferedAnswers, DYNAMIC_COMPRESSION } from './compress-buffered.ts';
import type { PublicOrigin } from '../lib/public-origin.ts';
import { CROSS_SITE_MESSAGE, cookieAuthenticated, crossSiteWrite } from '../lib/same-origin.ts';
import { requireAdmin, sessionForToken, tokenOf, type Tokens } from '../lib/auth.ts';
import type { UserRow } from '../modules/users/index.ts';
import { decodedPath } from '../lib/http.ts';
import { API_SECURITY_HEADERS, contentSecurityPolicy, DOCUMENT_HEADERS, PRIVATE_NO_STORE, SAFE_METHODS, SECURITY_HEADERS } from './security.ts';

const JSON_POLICY = API_SECURITY_HEADERS['content-security-policy']!;

/** Cookies, security headers and compression: what every answer goes through. */
export async function registerEdgePlugins(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  // Helmet's headers for every answer; the policy and the headers only a document reads are set per answer below.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
  // Dynamic answers (JSON over 1 KiB, rendered pages) are compressed per response at a quality that costs little
  // CPU; built assets and lookup lists were compressed once, at their strongest (ADR 019). An answer whole in memory
  // is compressed in one call (compress-buffered.ts), a stream by @fastify/compress. Request bodies are not inflated:
  // no client of ours compresses them, and an inflater is one more way to make the server work.
  compressBufferedAnswers(app);
  await app.register(compress, { global: true, globalDecompression: false, ...DYNAMIC_COMPRESSION });
}

/** Where a request keeps its script nonce once drawn. */
const NONCE = Symbol('cspNonce');

/**
 * What every request goes through before its route: its id and script nonce, the cross-site refusal, who sends it
 * (and, for the admin namespace, the refusal of anyone else: unknown admin paths say nothing of what exists),
 * its strings normalised, and the caching of private answers. The hooks call Fastify's `done` rather than return a
 * promise: a kept page's hit goes through every one, and their promises cost it 11–15 % (ADR 087).
 */
export function installRequestHooks(
  app: FastifyInstance,
  deps: {
    env: Env;
    db: Db;
    tokens: Tokens;
    origin: PublicOrigin;
    /** A provider widget's origins the pages may load (ADR 050). */
    widgetOrigins?: readonly string[];
    /** Refuses an administrator the admin API until the policy's second factor is set up (ADR 054). */
    adminGate?: (user: UserRow) => Promise<void>;
  },
): void {
  const { env, db, tokens, origin, widgetOrigins = [], adminGate } = deps;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Probes from the load balancer address an instance directly: they do not say what the public origin is.
    const path = decodedPath(request.url);
    if (path !== '/api/health' && path !== '/api/ready') origin.observe(request);
    done();
  });
  // The script nonce is drawn when something asks for it (a page's render, or the policy below): a guest's page sent
  // from the cache carries its scripts' hashes instead (ADR 021), and drew one for nothing (12 % of that path, issue 31).
  app.decorateRequest('cspNonce', {
    getter() {
      const kept = this as unknown as { [NONCE]?: string };
      return (kept[NONCE] ??= randomBytes(16).toString('base64'));
    },
  });
  const policyAround = contentSecurityPolicy({ nonce: '\0' }, widgetOrigins).split('\0') as [string, string];
  // A JSON answer runs nothing, so its policy allows nothing and it carries no header that only a document reads: the
  // early answers' headers (server/lib/fast-answers.ts), with no nonce drawn for it (ADR 090).
  app.addHook('onSend', (request, reply, payload, done) => {
    const json = String(reply.getHeader('content-type')).startsWith('application/json');
    if (!json) reply.headers(DOCUMENT_HEADERS);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', json ? JSON_POLICY : policyAround.join(request.cspNonce));
    done(null, payload);
  });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  const identifyCaller = async (request: FastifyRequest, path: string) => {
    // Refused before anything is read or written.
    if (crossSiteWrite(request, env.PUBLIC_URL)) throw forbidden(CROSS_SITE_MESSAGE);
    const signedIn = await sessionForToken(db, tokens, tokenOf(request));
    request.user = signedIn?.user ?? null;
    request.sessionId = signedIn?.sessionId ?? null;
    // The whole admin API, unknown paths and invalid requests included, exists for admins only.
    if (path === '/api/admin' || path.startsWith('/api/admin/')) await adminGate?.(requireAdmin(request));
  };
  app.addHook('onRequest', (request, _reply, done) => {
    // The router matches the decoded path, so the checks below must look at it too.
    const path = decodedPath(request.url);
    // Pages resolve their user in the SSR context; assets need none.
    if (!path.startsWith('/api/')) return done();
    identifyCaller(request, path).then(() => done(), done);
  });

  // Every string of a request, before any schema sees it: PostgreSQL cannot store a lone surrogate in jsonb nor
  // a NUL anywhere, and equal words should compare equal.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.url?.startsWith('/api/')) {
      request.body = normaliseStrings(request.body);
      request.query = normaliseStrings(request.query);
      request.params = normaliseStrings(request.params);
    }
    done();
  });

  // What one signed-in user sees (and any answer to a write, a login's token among them) stays out of shared
  // and browser caches; public anonymous reads keep their own caching.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (decodedPath(request.url).startsWith('/api/') && !reply.hasHeader('cache-control')) {
      if (
        request.user ||
        request.headers.authorization ||
        cookieAuthenticated(request) ||
        !SAFE_METHODS.has(request.method)
      ) {
        reply.header('cache-control', PRIVATE_NO_STORE);
      }
    }
    done(null, payload);
  });
}

/** The OpenAPI document of the endpoint table (served by the docs module). */
export async function registerOpenApi(app: FastifyInstance, env: Env): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: `${env.BRAND_NAME} API`, version: '1.0.0', description: 'JSON API of the services exchange' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
}
