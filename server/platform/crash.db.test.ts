import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { openPglite } from '../db/client.ts';
import { outbox } from '../db/schema/outbox.ts';
import { parseMessage } from '../test/smtp-sink.ts';

const root = path.resolve(import.meta.dirname, '../..');
const onPostgres = process.env.TEST_DB === 'postgres';

// PostgreSQL: a database of this file's own; PGlite: a data directory the processes take turns on.
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase({ reference: false });
});
afterAll(() => database?.drop());

function run(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
      DATABASE_URL: database?.url ?? '',
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (pattern: RegExp, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!pattern.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${script}: no ${pattern} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, waitFor };
}

/** Subjects of the letters in the mail outbox folder. */
function lettersIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => parseMessage(readFileSync(path.join(dir, f))).subject);
}

describe('a server killed after a commit, before its dispatch', () => {
  it('sends the committed letter exactly once after a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-crash-'));
    const mailDir = path.join(dataDir, 'mail');
    const subject = `Письмо после сбоя ${Date.now()}`;
    const env = { DATA_DIR: dataDir, CRASH_TEST_SUBJECT: subject, CRASH_TEST_TO: 'crash@example.org' };

    const doomed = run('server/test/outbox-crash-child.ts', env);
    await doomed.waitFor(/^committed$/m);
    doomed.child.kill('SIGKILL');
    expect((await doomed.exited).signal).toBe('SIGKILL');
    expect(lettersIn(mailDir)).toEqual([]);

    const restarted = run('server/main.ts', env);
    await restarted.waitFor(/running at http/);
    const deadline = Date.now() + 20_000;
    while (!lettersIn(mailDir).includes(subject) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A few more poll rounds (1 s each) for a second delivery to show up, if there were one.
    await new Promise((r) => setTimeout(r, 3000));
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
    expect(lettersIn(mailDir)).toEqual([subject]);

    // Delivered rows are gone: no later start sends it again.
    const db = database ?? (await openPglite(path.join(dataDir, 'db')));
    try {
      expect(await db.db.select().from(outbox).where(eq(outbox.kind, 'letter'))).toEqual([]);
    } finally {
      if (!database) await db.close();
    }
  }, 180_000);
});
