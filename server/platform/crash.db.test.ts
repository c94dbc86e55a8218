import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { outbox } from './schema.ts';
import { parseMessage } from '../test/smtp-sink.ts';
import { runChild, withDatabase } from '../test/child-process.ts';

const onPostgres = process.env.TEST_DB === 'postgres';

// PostgreSQL: a database of this file's own; PGlite: a data directory the processes take turns on.
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase({ reference: false });
});
afterAll(() => database?.drop());

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

    const doomed = runChild(['server/test/outbox-crash-child.ts'], env, database?.url);
    await doomed.waitFor(/^committed$/m);
    doomed.child.kill('SIGKILL');
    expect((await doomed.exited).signal).toBe('SIGKILL');
    expect(lettersIn(mailDir)).toEqual([]);

    const restarted = runChild(['server/main.ts'], env, database?.url);
    await restarted.waitFor(/running at http/);
    const deadline = Date.now() + 20_000;
    while (!lettersIn(mailDir).includes(subject) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A few more poll rounds (1 s each) for a second delivery to show up, if there were one.
    await new Promise((r) => setTimeout(r, 3000));
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
    expect(lettersIn(mailDir)).toEqual([subject]);

    // Delivered rows are gone: no later start sends it again.
    await withDatabase(database, dataDir, async (db) => {
      expect(await db.select().from(outbox).where(eq(outbox.kind, 'letter'))).toEqual([]);
    });
  }, 180_000);
});
