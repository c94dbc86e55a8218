import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Env } from './env.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedReference } from './db/seed/reference.ts';
import { demoPassword, seedDemo, seededDemoAccounts, type DemoAccount } from './db/seed/demo.ts';
import { seedDemoOrders } from './db/seed/demo-orders.ts';
import { seedDemoReviews } from './db/seed/demo-reviews.ts';
import { seedDemoDisputes } from './db/seed/demo-disputes.ts';
import { seedDemoNotifications } from './db/seed/demo-notifications.ts';
import { seedDemoAppeals } from './db/seed/demo-appeals.ts';
import { ensureBootstrapAdmin } from './db/seed/admin.ts';
import { buildApp } from './app.ts';
import { storageFor } from './lib/storage-for.ts';
import type { Realtime } from './realtime/socket.ts';
import { MODULES } from './modules/index.ts';
import { RATES_REFRESH_JOB } from './modules/rates/index.ts';
import { instanceIdOf } from './platform/instance.ts';
import { releaseMemoryWhenIdle } from './lib/idle-memory.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  realtime: Realtime;
  url: string;
  demoAccounts: DemoAccount[] | null;
  close(): Promise<void>;
}

/** Every module's recurring jobs (ADR 047). */
export const RECURRING_JOBS = MODULES.flatMap((module) => module.recurring ?? []);

/**
 * What a start does before it serves: migrations, reference data, the demo's data in a database nobody has registered
 * in yet, the bootstrap admin; then the app on that database. The demo accounts are named whenever the demo is there.
 */
async function setUp(env: Env, logger: Logger, database: Database): Promise<{ app: FastifyInstance; demoAccounts: DemoAccount[] | null }> {
  await database.migrate();
  await seedReference(database.db);
  // Demo data first: it goes only into a database nobody has registered in yet. Its pictures go where
  // the app keeps uploads; its users' password is the data folder's own (never a published one).
  let seeded: DemoAccount[] | null = null;
  if (env.SEED_DEMO) {
    const storage = storageFor(env);
    try {
      seeded = await seedDemo(database.db, storage, () => demoPassword(env.DATA_DIR));
    } finally {
      await storage.close?.();
    }
  }
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await ensureBootstrapAdmin(database.db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);

  const app = await buildApp({ env, database, logger });
  if (seeded) {
    // Orders in every state, through the app's own commands (their chats, messages, ledger and outbox rows); the
    // outbox rows are delivered once a dispatcher starts.
    await seedDemoOrders(app.services, database.db, seeded);
    // Reviews and the ratings they make (ADR 029), through the same commands.
    await seedDemoReviews(app.services, database.db, seeded);
    // The demo customer's appeals: one answered, one new (issue 14).
    await seedDemoAppeals(app.services, database.db);
    // One open dispute between the demo customer and the demo seller (ADR 034).
    await seedDemoDisputes(app.services, database.db, seeded);
    // Notifications for the demo people, some unread (ADR 030).
    await seedDemoNotifications(database.db, seeded);
  }
  const demoAccounts = seeded ?? (env.SEED_DEMO ? await seededDemoAccounts(database.db, env.DATA_DIR) : null);
  return { app, demoAccounts };
}

/**
 * A start's preparation alone, then closed (`--prepare`, ADR 072): the first start on an embedded database seeds it
 * in a process of its own, so the process that then serves never held the seed's garbage. The demo pictures' variants
 * are left to the server (made in the background as it serves).
 */
export async function prepareServer(env: Env, logger: Logger): Promise<void> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const { app } = await setUp(env, logger, database);
    await app.close();
  } finally {
    await database.close();
  }
}

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
  const { app, demoAccounts } = await setUp(env, logger, database);
  // The demo pictures' variants that are not there yet (all of them after the seed), made in the background.
  if (demoAccounts) await app.services.files.makeAllVariants();
  const realtime = app.services.realtime;

  const { dispatcher } = app.services.platform;
  // Each module's recurring jobs, run through the outbox dispatcher (one run across instances).
  for (const { job, everyMs, run } of RECURRING_JOBS) dispatcher.every(job, everyMs, () => run(app.modules));
  if (opts.dispatch !== false) {
    await dispatcher.start();
    // SPEC §7: fetched once at startup when no rate is held, then hourly.
    if (env.RATES_URL && !(await app.services.rates.held())) await dispatcher.trigger(RATES_REFRESH_JOB);
  }

  const url = await app.listen({ port: env.PORT, host: env.HOST });
  // Listening on the instance's address proves no other live process is this instance (ADR 061): its leases from
  // now on are the instance's, and the rows its previous process claimed and never completed (a crash, a kill) run
  // now instead of after their lease.
  const instanceId = instanceIdOf(env);
  if (instanceId) app.services.platform.identity.establish(instanceId);
  if (instanceId && opts.dispatch !== false) {
    // A failure only leaves those rows to their lease: no reason to refuse to start.
    await dispatcher.reclaimOwn().catch((err: unknown) => logger.error({ err }, 'outbox: taking back the previous process rows failed'));
  }
  // What the start and each burst of work leave in malloc's arenas goes back to the system when idle (ADR 073).
  const stopReleasing = await releaseMemoryWhenIdle(logger);

  let closing: Promise<void> | null = null;
  return {
    app,
    database,
    realtime,
    url,
    demoAccounts,
    close: () =>
      (closing ??= (async () => {
        stopReleasing?.();
        // Drops sockets, stops accepting, lets in-flight requests finish, then stops the dispatcher (its handlers
        // in flight finish) before the mailer, Redis and the database close.
        await app.close();
        await database.close();
      })()),
  };
}
