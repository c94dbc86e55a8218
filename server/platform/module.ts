import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Env } from '../env.ts';
import type { Database, Db } from '../db/client.ts';
import type { FastAnswers } from '../lib/fast-answers.ts';
import type { Mailer } from '../lib/mail.ts';
import type { PublicOrigin } from '../lib/public-origin.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Tokens } from '../lib/auth.ts';
import type { Realtime } from '../realtime/socket.ts';
import type { ReadHandlers } from './endpoints.ts';
import type { FileUse } from './files.ts';
import type { Letters } from './letters/index.ts';
import type { SeenToday } from './listing/visitors.ts';
import type { PageCache } from './page-cache.ts';
import type { Platform } from './platform.ts';
import type { SettingsService } from './settings.ts';

/**
 * What the app holds, by name: the platform's parts here, and each module's services, added by the module itself
 * (`declare module '../../platform/module.ts' { interface Services { … } }` in its `module.ts`), so that no list of
 * modules is typed by hand anywhere (ADR 047).
 */
export interface Services {
  /** Transactions with their outbox, and the dispatcher that delivers it (started by startServer). */
  platform: Platform;
  /** Every letter, queued on a transaction's outbox after the person's email preferences are checked. */
  letters: Letters;
  tokens: Tokens;
  realtime: Realtime;
  mailer: Mailer;
  limiter: RateLimiter;
  settings: SettingsService;
  /** Guests' rendered pages, kept for seconds (ADR 021). */
  pageCache: PageCache;
}

/** What a module is made with: the platform, this deployment's configuration, and the services made before it. */
export interface ModuleContext {
  env: Env;
  database: Database;
  db: Db;
  log: Logger;
  /**
   * Every service by name. A module may use, while it is made, those of the modules listed before it in
   * server/modules/index.ts; at call time (inside a function it keeps), any.
   */
  services: Services;
  /** Visitors counted once a day per listing (ADR 027). */
  seen: SeenToday;
  origin: PublicOrigin;
  /** The public origin for links in letters. */
  siteUrl: () => string;
  /** The address this server listens on (the sandbox provider's HTTP loopback); null when it does not listen now. */
  loopbackUrl: () => string | null;
  /** Answers served from memory before Fastify (ADR 019). */
  fast: FastAnswers;
  /** Every module's declared uses of uploaded files (ADR 041). */
  fileUses: readonly FileUse[];
}

/** A job the dispatcher runs every so often, once across instances. */
export interface RecurringJob {
  /** Its name in the outbox (unique). */
  job: string;
  everyMs: number;
  run(ctx: ModuleContext): Promise<unknown>;
}

/**
 * One server module's face (ADR 047): what it adds to the app. server/app.ts makes and mounts the modules of
 * server/modules/index.ts in one loop; server/server.ts schedules their recurring jobs.
 */
export interface ServerModule {
  name: string;
  /** Its services, added to `Services` under their names. */
  create?(ctx: ModuleContext): Partial<Services>;
  /** Registers its endpoints (contract/endpoints) on the app; GET handlers go into `reads` for the web's loaders. */
  routes?(app: FastifyInstance, ctx: ModuleContext & { reads: ReadHandlers }): PromiseLike<unknown>;
  /** Outbox jobs and other instances' signals it handles, registered once every module is made. */
  subscribe?(ctx: ModuleContext): void;
  recurring?: readonly RecurringJob[];
  /** How it keeps uploaded files (ADR 041). */
  fileUses?: readonly FileUse[];
  /** Runs as the app closes, after requests have finished and before the sockets and the database close. */
  close?(services: Services): Promise<unknown>;
}

export const defineModule = <M extends ServerModule>(module: M): M => module;
