import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Env } from '../env.ts';
import type { Database } from '../db/client.ts';
import { createPublicOrigin } from '../lib/public-origin.ts';
import { Tokens } from '../lib/auth.ts';
import type { FastAnswers } from '../lib/fast-answers.ts';
import { createMailer } from '../lib/mail.ts';
import { memoryRateLimiter, redisRateLimiter } from '../lib/rate-limiter.ts';
import { attachRealtime } from '../realtime/socket.ts';
import { createPlatform } from '../platform/platform.ts';
import { redisPrefix } from '../platform/deployment.ts';
import type { Clock } from '../platform/clock.ts';
import { Letters } from '../platform/letters/index.ts';
import type { ModuleContext, Services } from '../platform/module.ts';
import { PAGES_CHANGED_JOB, PageCache } from '../platform/page-cache.ts';
import { SETTINGS_CHANGED_JOB, SettingsService } from '../platform/settings.ts';
import { SeenToday } from '../platform/listing/visitors.ts';
import { FILE_USES } from '../modules/index.ts';
import { settingsSchema } from '#contract/settings';
import { listeningUrl, loopbackUrl } from './http.ts';

/**
 * The platform's parts every module is made with (the socket server, the rate limiter, the mailer, the outbox and
 * its dispatcher, settings, letters), as the modules' context; the modules add their services to `services`.
 */
export async function createKernel(
  app: FastifyInstance,
  deps: { env: Env; database: Database; logger: Logger; clock?: Clock; fast: FastAnswers },
): Promise<ModuleContext> {
  const { env, database, logger, clock, fast } = deps;
  const { db } = database;
  const tokens = new Tokens(env.JWT_SECRET);
  // Two deployments on one Redis must not share channels or counters (ADR 061).
  const prefix = env.REDIS_URL ? await redisPrefix(db, env.REDIS_PREFIX) : undefined;
  const realtime = await attachRealtime({ server: app.server, db, tokens, log: logger, redisUrl: env.REDIS_URL, redisPrefix: prefix });
  let degradedAt = 0;
  const limiter = env.REDIS_URL
    ? await redisRateLimiter(env.REDIS_URL, {
        prefix,
        // Once a minute at most: each limited request would otherwise log during an outage.
        onDegraded: (err) => {
          if (Date.now() - degradedAt > 60_000) logger.warn({ err }, 'redis unreachable: rate limits count on this instance alone');
          degradedAt = Date.now();
        },
      })
    : memoryRateLimiter();
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
    fallback: () => listeningUrl(app, env),
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
  const services = { platform, letters, tokens, realtime, mailer, limiter, settings, pageCache: new PageCache() } as Services;
  return {
    env,
    database,
    db,
    log: logger,
    services,
    seen: new SeenToday(env.REDIS_URL ? limiter : null, logger),
    origin,
    siteUrl,
    loopbackUrl: () => loopbackUrl(app),
    fast,
    fileUses: FILE_USES,
  };
}

/** Signals of the platform's own: pages dropped after a moderator's decision, settings read afresh (ADR 036). */
export function subscribePlatform({ services }: ModuleContext): void {
  const { platform, realtime, settings } = services;
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
}
