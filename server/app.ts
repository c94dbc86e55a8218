import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { constants as zlib } from 'node:zlib';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Env } from './env.ts';
import type { Database } from './db/client.ts';
import { forbidden, installErrorHandler } from './lib/http.ts';
import { normaliseStrings } from './lib/text.ts';
import { createPublicOrigin } from './lib/public-origin.ts';
import { CROSS_SITE_MESSAGE, cookieAuthenticated, crossSiteWrite } from './lib/same-origin.ts';
import { Tokens, requireAdmin, tokenOf, userForToken } from './lib/auth.ts';
import { LOOKUP_CACHE_CONTROL, LOOKUP_ENDPOINTS, lookupRoutes, LookupService, type LookupList } from './modules/lookups/index.ts';
import { FastAnswers } from './lib/fast-answers.ts';
import { ratesRoutes, RatesService } from './modules/rates/index.ts';
import { ROUTE_RULES_CHANGED_JOB, routeRuleRoutes, RouteRuleService } from './modules/route-rules/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { docsRoutes } from './modules/docs/index.ts';
import { seoRoutes } from './modules/seo/index.ts';
import { adminServicesRoutes, ServiceCatalog, servicesRoutes } from './modules/services/index.ts';
import { searchSuggestionRoutes, SearchSuggestions } from './modules/search/index.ts';
import { SeenToday } from './platform/listing/visitors.ts';
import { adminProjectRoutes, projectRoutes, ProjectService } from './modules/projects/index.ts';
import { favoriteRoutes, FavoriteService } from './modules/favorites/index.ts';
import { peopleRoutes, PeopleService } from './modules/people/index.ts';
import { chatRoutes, ChatService } from './modules/chat/index.ts';
import { paymentRatesRoutes, paymentRoutes, PaymentService } from './modules/payments/index.ts';
import { dashboardRoutes, DashboardService } from './modules/dashboard/index.ts';
import { orderRoutes, OrderService } from './modules/orders/index.ts';
import { reviewRoutes, ReviewService } from './modules/reviews/index.ts';
import { blogRoutes, BlogService } from './modules/blog/index.ts';
import { appealRoutes, AppealService } from './modules/appeals/index.ts';
import { disputeRoutes, DisputeService } from './modules/disputes/index.ts';
import { bidRoutes, BidService } from './modules/bids/index.ts';
import { notificationRoutes, NotificationService } from './modules/notifications/index.ts';
import { presentMe, userRoutes, UserService } from './modules/users/index.ts';
import { authRoutes, AuthService } from './modules/auth/index.ts';
import { adminOverviewRoutes, adminSettingsRoutes, adminUserRoutes, AdminUserService, OverviewService } from './modules/admin/index.ts';
import { FileService, filesRoutes } from './modules/files/index.ts';
import { SETTINGS_CHANGED_JOB, SettingsService } from './platform/settings.ts';
import { settingsSchema } from '#contract/settings';
import { createMailer, type Mailer } from './lib/mail.ts';
import { Turnstile } from './lib/turnstile.ts';
import { LocalStorage, uploadsRoot } from './lib/storage.ts';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './lib/rate-limiter.ts';
import { attachRealtime, type Realtime } from './realtime/socket.ts';
import { createPlatform, type Platform } from './platform/platform.ts';
import type { Clock } from './platform/clock.ts';
import { Letters } from './platform/letters/index.ts';
import { createReader, type ReadHandlers } from './platform/endpoints.ts';
import path from 'node:path';
import { mountWebApp, readBuildId, type GuestPages } from './web-handler.ts';
import { PAGES_CHANGED_JOB, PageCache } from './platform/page-cache.ts';
import { visitorOf } from './platform/listing/visitors.ts';
import type { SsrContext } from '#contract/ssr';
import { MESSAGES } from '#contract/messages';
import { routeOf } from '#contract/routes';
import { endpoints } from '#contract/endpoints';

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

export interface Services {
  /** Transactions with their outbox, and the dispatcher that delivers it (started by startServer). */
  platform: Platform;
  /** Every letter, queued on a transaction's outbox after the person's email preferences are checked. */
  letters: Letters;
  tokens: Tokens;
  lookups: LookupService;
  rates: RatesService;
  routeRules: RouteRuleService;
  realtime: Realtime;
  mailer: Mailer;
  limiter: RateLimiter;
  auth: AuthService;
  users: UserService;
  adminUsers: AdminUserService;
  /** The admin home's figures (ADR 036). */
  overview: OverviewService;
  files: FileService;
  settings: SettingsService;
  serviceCatalog: ServiceCatalog;
  searchSuggestions: SearchSuggestions;
  projects: ProjectService;
  favorites: FavoriteService;
  people: PeopleService;
  chat: ChatService;
  bids: BidService;
  orders: OrderService;
  reviews: ReviewService;
  /** Appeals to the administration (issue 14). */
  appeals: AppealService;
  /** Disputes over orders (issue 14, ADR 034). */
  disputes: DisputeService;
  payments: PaymentService;
  /** The profile dashboard and referral page (issue 13). */
  dashboard: DashboardService;
  notifications: NotificationService;
  /** The blog (ADR 037). */
  blog: BlogService;
  /** Guests' rendered pages, kept for seconds (ADR 021). */
  pageCache: PageCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyRequest {
    cspNonce: string;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const PRIVATE_NO_STORE = 'private, no-store';

/** Turnstile's script and frame are the only foreign origin a page may use. */
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/**
 * Our own assets only, inline scripts by nonce (React Router's hydration scripts carry it) or, for a page kept for
 * every guest, by their hashes (ADR 021), plus Turnstile.
 */
export function contentSecurityPolicy(inline: { nonce: string } | { hashes: string[] }): string {
  const scripts = 'nonce' in inline ? `'nonce-${inline.nonce}'` : inline.hashes.join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${scripts} ${TURNSTILE_ORIGIN}`.replace(/ {2,}/g, ' '),
    `frame-src 'self' ${TURNSTILE_ORIGIN}`,
    `connect-src 'self' ${TURNSTILE_ORIGIN}`,
    "img-src 'self' data: blob:",
    // Inline style attributes (React's style prop) need this; no script can run through it.
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers helmet (registered below) puts on every answer, for the answers served before Fastify
 * (server/lib/fast-answers.ts); server/edge.db.test.ts proves both paths send the same. JSON needs no script
 * nonce: its policy allows nothing.
 */
export const API_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
} as const;

function decodedPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') return 'http://localhost:3000';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`;
}

export async function buildApp({ env, database, logger, web = true, clock }: AppDeps): Promise<FastifyInstance> {
  const fast = new FastAnswers(API_SECURITY_HEADERS);
  /** Set when the app starts closing (preClose). */
  let closing = false;
  const app = Fastify({
    // Fastify's own server, with the answers held in memory served before it (ADR 019).
    serverFactory: (handler, options) => {
      const server = createServer((req, res) => {
        // Node's close() closes the idle keep-alive connections once and waits for the others: one busy at that
        // moment (a long poll being ended, a request in flight) would then idle out its keep-alive (72 s) before
        // the server could close. Closing, a connection is closed once its answer has left.
        res.on('finish', () => closing && setImmediate(() => server.closeIdleConnections()));
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
    // Ours, never the client's: a chosen id could forge or tangle log lines.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
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

  const { db } = database;
  const tokens = new Tokens(env.JWT_SECRET);
  const realtime = await attachRealtime({ server: app.server, db, tokens, log: logger, redisUrl: env.REDIS_URL });
  const limiter = env.REDIS_URL ? await redisRateLimiter(env.REDIS_URL) : memoryRateLimiter();
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    outboxDir: path.join(env.DATA_DIR, 'mail'),
    from: env.MAIL_FROM,
    log: logger,
  });
  const platform = createPlatform({ db, log: logger, clock });
  platform.dispatcher
    .deliverSockets((userIds, event, ...args) => realtime.emitToUsers(userIds, event, ...args))
    .deliverLetters((to, letter) => mailer.send(to, letter));
  const origin = createPublicOrigin({
    publicUrl: env.PUBLIC_URL,
    production: env.NODE_ENV === 'production',
    fallback: () => listeningUrl(app),
    onLearnt: (learnt) =>
      logger.warn({ origin: learnt }, 'PUBLIC_URL is not set: links use the first origin this server was addressed by'),
  });
  // Links in letters point at the public origin, else at the address the server listens on.
  const siteUrl = () => origin.site();
  const { withTx } = platform;
  // The brand is an operator setting (ADR 036) whose default is this deployment's BRAND_NAME.
  const brandDefault = settingsSchema.shape['brand.name'].safeParse(env.BRAND_NAME);
  const settings = new SettingsService(db, withTx, logger, brandDefault.success ? { 'brand.name': brandDefault.data } : {});
  // Letters take the brand synchronously (they are built inside transactions): the last read, warmed here.
  settings.all().catch(() => {});
  const letters = new Letters({ brand: () => settings.latest()['brand.name'], siteUrl, secret: env.JWT_SECRET });
  const auth = new AuthService({
    db,
    tokens,
    withTx,
    letters,
    limiter,
    log: logger,
    turnstile: new Turnstile(
      {
        secret: env.TURNSTILE_SECRET,
        verifyUrl: env.TURNSTILE_VERIFY_URL,
        production: env.NODE_ENV === 'production',
        disabled: env.TURNSTILE_DISABLED,
      },
      logger,
    ),
    onRevoke: (userId) => realtime.disconnectUser(userId),
  });
  const seen = new SeenToday(env.REDIS_URL ? limiter : null, logger);
  // The search's synonym dictionary is an operator setting (ADR 028): a change reaches every instance with the settings.
  const synonyms = async () => (await settings.all())['search.synonyms'];
  const projects = new ProjectService({ db, presence: realtime, withTx, letters, log: logger, seen, synonyms });
  const rates = new RatesService(db, env.RATES_URL, logger, async () => {
    const all = await settings.all();
    return { USDT: all['rates.fallbackUSDT'], BTC: all['rates.fallbackBTC'] };
  });
  const notifications = new NotificationService({ db, platform, settings, letters, realtime, secret: env.JWT_SECRET, log: logger });
  // Order chats show their order card (the orders module, made below: looked up when a chat is presented).
  const chat = new ChatService({
    db,
    realtime,
    limiter,
    log: logger,
    jobs: platform.dispatcher,
    describeOrders: (ids) => orders.describe(ids),
    // The letter to a recipient who stays offline with the message unseen (ADR 030).
    onSent: (sent) => notifications.messagesSent(sent),
  });
  // The money loop (ADR 025).
  const orders: OrderService = new OrderService({ db, platform, settings, letters, realtime, chat, log: logger });
  const bids = new BidService({ db, platform, settings, letters, realtime, limiter, orders, log: logger });
  const payments = new PaymentService({
    db,
    platform,
    settings,
    letters,
    realtime,
    rates,
    orders,
    siteUrl,
    // The sandbox provider calls our webhook on this server's own address (the HTTP loopback).
    loopbackUrl: () => listeningUrl(app),
    webhookSecret: env.PAYMENTS_WEBHOOK_SECRET,
    sandbox: env.PAYMENTS_SANDBOX,
    log: logger,
  });
  const disputes = new DisputeService({ db, platform, settings, letters, realtime, chat, orders, limiter, log: logger });
  const serviceCatalog = new ServiceCatalog({ db, realtime, withTx, letters, log: logger, seen, synonyms, minPrice: () => settings.get('services.minPrice') });
  const services: Services = {
    platform,
    letters,
    tokens,
    lookups: new LookupService(db),
    rates,
    routeRules: new RouteRuleService(db, withTx),
    realtime,
    mailer,
    limiter,
    auth,
    users: new UserService({ db, auth, tokens, withTx, letters }),
    adminUsers: new AdminUserService(db, auth),
    overview: new OverviewService({ db, clock: platform.clock, disputes }),
    files: new FileService(db, new LocalStorage(uploadsRoot(env.DATA_DIR)), { settings, limiter }),
    settings,
    serviceCatalog,
    searchSuggestions: new SearchSuggestions(db, logger, seen, (queries) => serviceCatalog.findsSomething(queries)),
    projects,
    favorites: new FavoriteService({ db, presence: realtime, projects }),
    people: new PeopleService({ db, presence: realtime }),
    chat,
    bids,
    orders,
    payments,
    dashboard: new DashboardService({ db, settings, clock: platform.clock }),
    reviews: new ReviewService({ db, platform, settings, letters }),
    appeals: new AppealService({ db, platform, settings, letters, disputes }),
    disputes,
    notifications,
    blog: new BlogService({ db, platform }),
    pageCache: new PageCache(),
  };
  app.decorate('services', services);
  // Open long-polling requests would hold the HTTP server's close: end them first.
  app.addHook('preClose', async () => {
    closing = true;
    // Events of messages already answered go out before the sockets are dropped.
    await services.chat.idle();
    await realtime.drain();
  });
  app.addHook('onClose', async () => {
    // In-flight requests have finished: their rows are delivered by the pass in flight or left for the next start
    // (or another instance). Handlers in flight finish while the sockets and the mailer are still open.
    await platform.dispatcher.stop();
    await services.serviceCatalog.flushViews();
    await services.searchSuggestions.flush();
    await services.files.variants.close();
    await realtime.close();
    await limiter.close();
    await mailer.close();
  });

  await app.register(cookie);
  await app.register(helmet, {
    // Set per request below, with a fresh script nonce.
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // Dynamic answers (JSON over 1 KiB, rendered pages) are compressed per response at a quality that costs little
  // CPU; built assets and lookup lists were compressed once, at their strongest (ADR 019). Request bodies are not
  // inflated: no client of ours compresses them, and an inflater is one more way to make the server work.
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 6 },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Probes from the load balancer address an instance directly: they do not say what the public origin is.
    const path = decodedPath(request.url);
    if (path !== '/api/health' && path !== '/api/ready') origin.observe(request);
    request.cspNonce = randomBytes(16).toString('base64');
    reply.header('content-security-policy', contentSecurityPolicy({ nonce: request.cspNonce }));
  });
  app.decorateRequest('user', null);
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (request) => {
    // The router matches the decoded path, so the checks below must look at it too.
    const path = decodedPath(request.url);
    // Pages resolve their user in the SSR context; assets need none.
    if (!path.startsWith('/api/')) return;
    // Refused before anything is read or written.
    if (crossSiteWrite(request, env.PUBLIC_URL)) throw forbidden(CROSS_SITE_MESSAGE);
    request.user = await userForToken(db, services.tokens, tokenOf(request));
    // The whole admin API, unknown paths and invalid requests included, exists for admins only.
    if (path === '/api/admin' || path.startsWith('/api/admin/')) requireAdmin(request);
  });

  // Every string of a request, before any schema sees it: PostgreSQL cannot store a lone surrogate in jsonb nor
  // a NUL anywhere, and equal words should compare equal.
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    request.body = normaliseStrings(request.body);
    request.query = normaliseStrings(request.query);
    request.params = normaliseStrings(request.params);
  });

  // What one signed-in user sees (and any answer to a write, a login's token among them) stays out of shared
  // and browser caches; public anonymous reads keep their own caching.
  app.addHook('onSend', async (request, reply, payload) => {
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
    return payload;
  });

  await app.register(swagger, {
    openapi: {
      info: { title: `${env.BRAND_NAME} API`, version: '1.0.0', description: 'JSON API of the services exchange' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });

  // The GET handlers, filled in as the modules register their routes: server-rendered pages read through them.
  const reads: ReadHandlers = new Map();
  await app.register(healthRoutes, { database, reads });
  await app.register(lookupRoutes, { lookups: services.lookups, reads });
  // Only what anybody may read: a list behind sign-in (tags) goes through the app's guard every time.
  for (const [name, list] of Object.entries(LOOKUP_ENDPOINTS) as [keyof typeof LOOKUP_ENDPOINTS, LookupList][]) {
    if (endpoints[name].access === 'public') fast.add(routeOf(name).path, () => services.lookups.peek(list), LOOKUP_CACHE_CONTROL);
  }
  await app.register(ratesRoutes, { rates: services.rates, reads });
  await app.register(routeRuleRoutes, { routeRules: services.routeRules, reads });
  await app.register(docsRoutes, { brand: env.BRAND_NAME });
  await app.register(authRoutes, { auth: services.auth, reads });
  await app.register(userRoutes, { users: services.users, reads });
  await app.register(adminUserRoutes, { adminUsers: services.adminUsers, reads });
  await app.register(filesRoutes, { files: services.files, tokens, db, reads });
  await app.register(adminSettingsRoutes, { settings: services.settings, reads });
  await app.register(adminOverviewRoutes, { overview: services.overview, db, reads });
  await app.register(seoRoutes, { db, blog: services.blog, origin: (request) => origin.of(request) });
  await app.register(searchSuggestionRoutes, { suggestions: services.searchSuggestions, reads });
  await app.register(servicesRoutes, {
    catalog: services.serviceCatalog,
    suggestions: services.searchSuggestions,
    reads,
  });
  await app.register(adminServicesRoutes, { catalog: services.serviceCatalog, reads });
  await app.register(projectRoutes, { projects: services.projects, reads });
  await app.register(adminProjectRoutes, { projects: services.projects, reads });
  await app.register(favoriteRoutes, { favorites: services.favorites, reads });
  await app.register(peopleRoutes, { people: services.people, reads });
  await app.register(chatRoutes, { chat: services.chat, reads });
  await app.register(paymentRatesRoutes, { reads, settings: services.settings });
  await app.register(bidRoutes, { bids, reads });
  await app.register(orderRoutes, { orders, reads });
  await app.register(paymentRoutes, { payments, reads });
  await app.register(dashboardRoutes, { dashboard: services.dashboard, reads });
  await app.register(reviewRoutes, { reviews: services.reviews, reads });
  await app.register(disputeRoutes, { disputes: services.disputes, reads });
  await app.register(notificationRoutes, { notifications, reads });
  await app.register(blogRoutes, { blog: services.blog, reads });
  await app.register(appealRoutes, { appeals: services.appeals, reads });

  app.get('/api/*', { schema: { hide: true } }, async (_request, reply) =>
    reply.status(404).send({ status: 404, message: MESSAGES.notFound }),
  );

  const { pageCache } = services;
  // A moderator's decision shows at once: this instance drops its pages, and tells the others to.
  platform.dispatcher.handle(PAGES_CHANGED_JOB, async () => {
    pageCache.clear();
    realtime.toOtherInstances('pagesChanged');
  });
  realtime.onOtherInstances('pagesChanged', () => pageCache.clear());
  // An operator's settings: this instance and the others read them afresh (ADR 036).
  const settingsChanged = () => {
    settings.forget();
    settings.all().catch(() => {});
  };
  platform.dispatcher.handle(SETTINGS_CHANGED_JOB, async () => {
    settingsChanged();
    realtime.toOtherInstances('settingsChanged');
  });
  realtime.onOtherInstances('settingsChanged', settingsChanged);
  platform.dispatcher.handle(ROUTE_RULES_CHANGED_JOB, async () => {
    services.routeRules.forget();
    realtime.toOtherInstances('routeRulesChanged');
  });
  realtime.onOtherInstances('routeRulesChanged', () => services.routeRules.forget());

  if (web) {
    const buildId = readBuildId();
    const read = createReader(reads, logger);
    const pages: GuestPages = {
      cache: pageCache,
      guest: (request) => tokenOf(request) === null,
      counted: new Set(['services.get']),
      async visit(read, request) {
        const { params } = read.input as { params: { id: string } };
        await services.serviceCatalog.countView(params.id, visitorOf(null, request.ip));
      },
      policy: (hashes) => contentSecurityPolicy({ hashes }),
    };
    await mountWebApp(app, async (request, reported): Promise<SsrContext> => {
      const [user, operator] = await Promise.all([userForToken(db, services.tokens, tokenOf(request)), settings.all()]);
      return {
        config: {
          brand: operator['brand.name'],
          description: operator['brand.description'],
          minServicePrice: operator['services.minPrice'],
          dev: env.PUBLIC_DEV,
          apiBase: '',
          siteUrl: origin.of(request),
          buildId,
          turnstileSiteKey: env.TURNSTILE_SITE_KEY ?? null,
        },
        user: user ? presentMe(user) : null,
        nonce: request.cspNonce,
        document: !request.url.split('?', 1)[0]!.endsWith('.data'),
        catalogue: () => services.lookups.catalogue(),
        catalogueUrl: async () => (await services.lookups.catalogueFile()).path,
        rates: () => services.rates.get(),
        routeRule: (path) => services.routeRules.lookup(path),
        // The visitor's address, not the loopback's: views and searches count visitors by it.
        read: ((name, input) => {
          reported?.(name, input ?? {});
          return read(name, input ?? {}, { user, ip: request.ip });
        }) as SsrContext['read'],
      };
    }, pages);
  }

  return app;
}
