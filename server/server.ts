import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Env } from './env.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedReference } from './db/seed/reference.ts';
import { demoPassword, seedDemo, type DemoAccount } from './db/seed/demo.ts';
import { seedDemoOrders } from './db/seed/demo-orders.ts';
import { seedDemoReviews } from './db/seed/demo-reviews.ts';
import { seedDemoDisputes } from './db/seed/demo-disputes.ts';
import { seedDemoNotifications } from './db/seed/demo-notifications.ts';
import { seedDemoAppeals } from './db/seed/demo-appeals.ts';
import { ensureBootstrapAdmin } from './db/seed/admin.ts';
import { buildApp } from './app.ts';
import { LocalStorage, uploadsRoot } from './lib/storage.ts';
import type { Realtime } from './realtime/socket.ts';
import { archiveStaleProjects } from './modules/projects/index.ts';
import { RATES_REFRESH_MS } from '#contract/constants';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  realtime: Realtime;
  url: string;
  demoAccounts: DemoAccount[] | null;
  close(): Promise<void>;
}

/** Recurring jobs, run through the outbox dispatcher (one run across instances). */
export const RECURRING_JOBS = {
  ratesRefresh: 'rates-refresh',
  archiveStaleProjects: 'archive-stale-projects',
  uploadsCleanup: 'uploads-cleanup',
  reviewsRatingWindow: 'reviews-rating-window',
} as const;
/** An upload nothing uses is deleted once it is this old (time enough to finish the form it was made for). */
const UNUSED_UPLOAD_MS = 24 * 60 * 60_000;

/** Boot: database → migrations → reference (and demo) data → app → socket → outbox dispatcher → listen. */
export async function startServer(
  env: Env,
  logger: Logger,
  opts: {
    database?: Database;
    /**
     * False leaves the outbox undelivered by this instance (its rows wait for another one or the next start): a
     * test stands for a server killed between a commit and its dispatch with it.
     */
    dispatch?: boolean;
  } = {},
): Promise<RunningServer> {
  const database = opts.database ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }));
  await database.migrate();
  await seedReference(database.db);
  // Demo data first: it goes only into a database nobody has registered in yet. Its pictures go where
  // the app keeps uploads; its users' password is the data folder's own (never a published one).
  const demoAccounts = env.SEED_DEMO
    ? await seedDemo(database.db, new LocalStorage(uploadsRoot(env.DATA_DIR)), () => demoPassword(env.DATA_DIR))
    : null;
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await ensureBootstrapAdmin(database.db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);

  const app = await buildApp({ env, database, logger });
  if (demoAccounts) {
    await app.services.files.makeAllVariants();
    // Orders in every state, through the app's own commands (their chats, messages, ledger and outbox rows); the
    // outbox rows are delivered once the dispatcher starts below.
    await seedDemoOrders(app.services, database.db, demoAccounts);
    // Reviews and the ratings they make (ADR 029), through the same commands.
    await seedDemoReviews(app.services, database.db, demoAccounts);
    // The demo customer's appeals: one answered, one new (issue 14).
    await seedDemoAppeals(app.services, database.db);
    // One open dispute between the demo customer and the demo seller (ADR 034).
    await seedDemoDisputes(app.services, database.db, demoAccounts);
    // Notifications for the demo people, some unread (ADR 030).
    await seedDemoNotifications(database.db, demoAccounts);
  }
  const realtime = app.services.realtime;

  const { dispatcher } = app.services.platform;
  dispatcher.every(RECURRING_JOBS.ratesRefresh, RATES_REFRESH_MS, () => app.services.rates.refresh());
  dispatcher.every(RECURRING_JOBS.archiveStaleProjects, 60 * 60_000, () => archiveStaleProjects(database.db));
  dispatcher.every(RECURRING_JOBS.uploadsCleanup, 60 * 60_000, () => app.services.files.sweepUnused(new Date(Date.now() - UNUSED_UPLOAD_MS)));
  // Ratings are means of the reviews of the last months (ADR 029): daily, those a review has left are recomputed.
  dispatcher.every(RECURRING_JOBS.reviewsRatingWindow, 24 * 60 * 60_000, () => app.services.reviews.refreshRatingWindow());
  if (opts.dispatch !== false) {
    await dispatcher.start();
    // SPEC §7: fetched once at startup when no rate is held, then hourly.
    if (env.RATES_URL && !(await app.services.rates.held())) await dispatcher.trigger(RECURRING_JOBS.ratesRefresh);
  }

  const url = await app.listen({ port: env.PORT, host: env.HOST });

  let closing: Promise<void> | null = null;
  return {
    app,
    database,
    realtime,
    url,
    demoAccounts,
    close: () =>
      (closing ??= (async () => {
        // Drops sockets, stops accepting, lets in-flight requests finish, then stops the dispatcher (its handlers
        // in flight finish) before the mailer, Redis and the database close.
        await app.close();
        await database.close();
      })()),
  };
}
