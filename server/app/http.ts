import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Env } from '../env.ts';
import { installErrorHandler } from '../lib/http.ts';
import type { FastAnswers } from '../lib/fast-answers.ts';
import { MESSAGES } from '#contract/messages';

/**
 * The server's own address. Before it listens (the demo data and its letters are made then) it is the address it is
 * about to listen on: HOST and PORT, not a port it may never use.
 */
export function listeningUrl(app: FastifyInstance, env: Pick<Env, 'HOST' | 'PORT'>): string {
  const bound = boundUrl(app);
  if (bound) return bound;
  // Closed: the address it listened on, not a guess (with PORT=0 the guess would be another process's port 3000).
  const last = lastBound.get(app.server);
  if (last) return last;
  const host = env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
  return `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${env.PORT || 3000}`;
}

const lastBound = new WeakMap<HttpServer, string>();

/** The address the server is bound to right now, or null (not yet listening, or closed or closing). */
function boundUrl(app: FastifyInstance): string | null {
  const address = app.server.listening ? app.server.address() : null;
  if (!address || typeof address === 'string') return null;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`;
  lastBound.set(app.server, url);
  return url;
}

/**
 * The server's own address for a request it sends itself (the sandbox provider's webhook), or null when nothing
 * listens there: before the start and once closing began, such a request would reach no one, or another process
 * on a guessed port. The job is then handed back to the outbox (JobDeferred) for a live instance.
 */
export function loopbackUrl(app: FastifyInstance): string | null {
  return boundUrl(app);
}

/** How long requests in flight may take to finish once the server is closing, before their connections are cut. */
export const CLOSE_GRACE_MS = 10_000;

/**
 * Node's close() waits for every open connection. One that turns busy as the server starts closing (a keep-alive
 * connection carrying a late request, a socket.io client's reconnection poll) would otherwise keep it open until its
 * keep-alive ends (72 s): idle connections are closed every quarter second, and all of them after the grace time.
 */
export function boundClose(server: HttpServer): void {
  const idle = setInterval(() => server.closeIdleConnections(), 250).unref();
  const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
  server.once('close', () => {
    clearInterval(idle);
    clearTimeout(cut);
  });
}

/**
 * Fastify on a node:http server of ours: the answers held in memory are served before it (ADR 019), and a closing
 * server closes each connection once its answer has left.
 */
export function createHttpApp(env: Env, logger: Logger, fast: FastAnswers, closing: () => boolean): FastifyInstance {
  const app = Fastify({
    // Fastify's own server, with the answers held in memory served before it (ADR 019).
    serverFactory: (handler, options) => {
      const server = createServer((req, res) => {
        // Node's close() closes the idle keep-alive connections once and waits for the others: one busy at that
        // moment (a long poll being ended, a request in flight) would then idle out its keep-alive (72 s) before
        // the server could close. Closing, a connection is closed once its answer has left.
        res.on('finish', () => closing() && setImmediate(() => server.closeIdleConnections()));
        return fast.handle(req, res) || handler(req, res);
      });
      // What Fastify sets on a server it makes itself (its defaults after its options are resolved).
      const timeouts = options as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      return server;
    },
    loggerInstance: logger as unknown as FastifyBaseLogger,
    // Closing, a request that still reaches us (a load balancer's keep-alive connection, or a new one before the
    // socket is drained and the listener closed) is served — the database is open until the last answer has left —
    // and its connection closed after it. Fastify's own choice would answer an English 503 the balancer passes on.
    return503OnClosing: false,
    // Ours, never the client's: a chosen id could forge or tangle log lines.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // One access line per request (below), not Fastify's two: at info level the second line was a fifth of a cached
    // page's throughput (issue 31).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: env.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    // The router's own refusals (a broken percent escape, a path parameter over maxParamLength) name no resource
    // we have: the same Russian 404 as any unknown path, in SPEC §7's envelope, not Fastify's English one.
    frameworkErrors: (_error, _request, reply: FastifyReply) => void reply.code(404).send({ status: 404, message: MESSAGES.notFound }),
    // Every route validates and serialises with zod (just below): Fastify's default Ajv and fast-json-stringify
    // compilers are never used, and loading them cost a start about 0.3 s (ADR 018).
    schemaController: { compilersFactory: { buildValidator: (() => validatorCompiler) as never, buildSerializer: (() => serializerCompiler) as never } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  return app;
}
