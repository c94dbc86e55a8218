import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Env } from './env.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedReference } from './db/seed/reference.ts';
import { demoPassword, seedDemo, type DemoAccount } from './db/seed/demo.ts';
import { ensureBootstrapAdmin } from './db/seed/admin.ts';
import { buildApp } from './app.ts';
import { LocalStorage, uploadsRoot } from './lib/storage.ts';
import type { Realtime } from './realtime/socket.ts';
import { Scheduler } from './jobs/scheduler.ts';
import { archiveStaleProjects } from './features/catalog/projects-service.ts';
import { RATES_REFRESH_MS } from '#contract/constants';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  realtime: Realtime;
  url: string;
  demoAccounts: DemoAccount[] | null;
  close(): Promise<void>;
}

/** Boot: database → migrations → reference (and demo) data → app → socket → jobs → listen. */
export async function startServer(env: Env, logger: Logger, opts: { database?: Database } = {}): Promise<RunningServer> {
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
  const realtime = app.services.realtime;

  const scheduler = new Scheduler(database.db, logger);
  const ratesJob = { name: 'rates-refresh', everyMs: RATES_REFRESH_MS, run: () => app.services.rates.refresh() };
  scheduler.add(ratesJob);
  scheduler.add({ name: 'archive-stale-projects', everyMs: 60 * 60_000, run: () => archiveStaleProjects(database.db) });
  await scheduler.start();
  // SPEC §7: fetched once at startup when no rate is held, then hourly.
  if (env.RATES_URL && !(await app.services.rates.held())) void scheduler.runIfDue(ratesJob, true);

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
        await scheduler.stop();
        await app.close(); // drops sockets, stops accepting, lets in-flight requests finish
        await database.close();
      })()),
  };
}
