import { spawn } from 'node:child_process';
import path from 'node:path';
import { openPglite, type Database } from '../db/client.ts';

// Tests that kill a server mid-flight (server/platform/crash.db.test.ts, modules/payments/crash.db.test.ts) run it,
// and the processes after it, as children of their own on one data directory or PostgreSQL database.

const root = path.resolve(import.meta.dirname, '../..');

/** A TypeScript entry (`server/main.ts`, a crash child) in a child process with a test environment. */
export function runChild(args: string[], env: Record<string, string>, databaseUrl = '') {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      RATES_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      SEED_DEMO: '0',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  /** The first match of `pattern` in the child's output, waited for; throws if the child ends or time runs out. */
  const waitFor = async (pattern: RegExp, ms = 60_000): Promise<RegExpMatchArray> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = out.match(pattern);
      if (match) return match;
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) throw new Error(`${args.join(' ')}: no ${pattern} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, waitFor, output: () => out };
}

/**
 * The database between two server processes: the PostgreSQL test database when there is one, else the data
 * directory's PGlite, opened only while no server runs (PGlite has one writer).
 */
export async function withDatabase<T>(database: Database | null, dataDir: string, fn: (db: Database['db']) => Promise<T>): Promise<T> {
  const opened = database ?? (await openPglite(path.join(dataDir, 'db')));
  try {
    return await fn(opened.db);
  } finally {
    if (!database) await opened.close();
  }
}
