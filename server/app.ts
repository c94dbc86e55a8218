import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Env } from './env.ts';
import type { Database } from './db/client.ts';
import { FastAnswers } from './lib/fast-answers.ts';
import type { ModuleContext, Services } from './platform/module.ts';
import type { Clock } from './platform/clock.ts';
import type { ReadHandlers } from './platform/endpoints.ts';
import { MODULES } from './modules/index.ts';
import { MESSAGES } from '#contract/messages';
import { boundClose, createHttpApp } from './app/http.ts';
import { installRequestHooks, registerEdgePlugins, registerOpenApi } from './app/edge.ts';
import { createKernel, subscribePlatform } from './app/kernel.ts';
import { mountPages } from './app/pages.ts';
import { API_SECURITY_HEADERS, widgetOriginsOf } from './app/security.ts';

export { API_SECURITY_HEADERS, PRIVATE_NO_STORE, contentSecurityPolicy } from './app/security.ts';
export { CLOSE_GRACE_MS } from './app/http.ts';
export type { Services } from './platform/module.ts';

// Field errors in Russian, as the UI shows them.
z.config(z.locales.ru());

export interface AppDeps {
  env: Env;
  database: Database;
  logger: Logger;
  /** Serve the built web app too (tests of the API alone leave it out). */
  web?: boolean;
  /** The platform's time (tests move it: deadlines, auto-accept); the system clock by default. */
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** What the modules were made with (server.ts runs their recurring jobs with it). */
    modules: ModuleContext;
  }
  interface FastifyRequest {
    cspNonce: string;
  }
}

/** The app: the platform, then the modules of server/modules/index.ts made and mounted in one loop (ADR 047). */
export async function buildApp({ env, database, logger, web = true, clock }: AppDeps): Promise<FastifyInstance> {
  const fast = new FastAnswers(API_SECURITY_HEADERS);
  /** Set when the app starts closing (preClose). */
  let closing = false;
  const app = createHttpApp(env, logger, fast, () => closing);
  const context = await createKernel(app, { env, database, logger, clock, fast });
  const { services } = context;
  // Each module in the order of server/modules/index.ts, then their subscriptions once all are there.
  for (const module of MODULES) Object.assign(services, module.create?.(context));
  subscribePlatform(context);
  for (const module of MODULES) module.subscribe?.(context);
  app.decorate('services', services);
  app.decorate('modules', context);
  // Open long-polling requests would hold the HTTP server's close: end them first.
  app.addHook('preClose', async () => {
    closing = true;
    boundClose(app.server);
    // Events of messages already answered go out before the sockets are dropped.
    await services.chat.idle();
    await services.realtime.drain();
  });
  app.addHook('onClose', async () => {
    // In-flight requests have finished: their rows are delivered by the pass in flight or left for the next start
    // (or another instance). Handlers in flight finish while the sockets and the mailer are still open.
    await services.platform.dispatcher.stop();
    for (const module of MODULES) await module.close?.(services);
    await services.realtime.close();
    await services.limiter.close();
    await services.mailer.close();
  });

  await registerEdgePlugins(app);
  // ЮKassa's payout widget is another site's script: allowed only when ЮKassa pays cards out (ADR 050).
  const widgetOrigins = widgetOriginsOf(services.payments.providers.cardWidget());
  installRequestHooks(app, {
    env,
    db: database.db,
    tokens: services.tokens,
    origin: context.origin,
    widgetOrigins,
    adminGate: (user) => services.twoFactor.adminGate(user),
  });
  await registerOpenApi(app, env);
  // The GET handlers, filled in as the modules register their routes: server-rendered pages read through them.
  const reads: ReadHandlers = new Map();
  for (const module of MODULES) await module.routes?.(app, { ...context, reads });
  app.get('/api/*', { schema: { hide: true } }, async (_request, reply) =>
    reply.status(404).send({ status: 404, message: MESSAGES.notFound }),
  );
  if (web) await mountPages(app, context, reads);
  return app;
}
