import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../server/db/client.ts';
import { benchLogLevel } from './lib.ts';

/**
 * The real server in this process on the demo's data, as `npm start` loads it (production mode, marked as the demo,
 * no bot check), on a free port and a fresh data folder; `close()` stops it and removes the folder. Set
 * NODE_ENV=production before calling: React picks its build when first imported.
 */
export async function startDemoServer(opts: { databaseUrl?: string } = {}) {
  const { loadEnv } = await import('../server/env.ts');
  const { createLogger } = await import('../server/logger.ts');
  const { startServer } = await import('../server/server.ts');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-bench-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    RATES_URL: '',
    SEED_DEMO: '1',
    DEMO_MODE: '1',
    TURNSTILE_DISABLED: 'true',
    JWT_SECRET: 'bench-only-secret-bench-only-secret-bench-only-secret',
    DATA_DIR: dataDir,
    DATABASE_URL: opts.databaseUrl,
    LOG_LEVEL: benchLogLevel(),
    // RENDER_THREADS=0 renders every page on the server's thread (ADR 077): the same build with and without threads.
    RENDER_THREADS: process.env.RENDER_THREADS,
  });
  const server = await startServer(env, createLogger(env, path.join(dataDir, 'server.log')));
  await settled(server.database.db);
  return {
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the outbox has nothing due: the demo's seed leaves hundreds of letters, socket events and jobs that
 * the dispatcher works through for half a minute after the start, and a measurement taken meanwhile measures them.
 */
async function settled(db: Db, timeoutMs = 300_000): Promise<void> {
  const { outbox } = await import('../server/platform/schema.ts');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [due] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(eq(outbox.state, 'pending'), lte(outbox.dueAt, new Date())));
    if (!due?.n) return;
    if (Date.now() > deadline) throw new Error(`the outbox still has ${due.n} due items after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
