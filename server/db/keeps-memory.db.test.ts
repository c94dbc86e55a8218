import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { openPostgres } from './client.ts';

// The server's connections keep their processes' memory (KEEP_MEMORY in client.ts): a query's memory is reused at
// its next run instead of asked of the system again. Read from the process's minor page faults (/proc), where
// PostgreSQL runs on the test's machine.

/** A sort in memory of some 3 MB: its blocks were given back to the system at the end of every run. */
const SORT = sql`select count(*) from (select g, md5(g::text) as m from generate_series(1, 30000) g order by m) s`;

const faults = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);

describe.runIf(process.env.TEST_DB === 'postgres')('a PostgreSQL connection of the server', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase({ reference: false });
  });
  afterAll(() => database?.drop());

  /** The page faults of the third run of SORT on one connection of a pool opened so, or null where /proc cannot tell. */
  async function faultsOfThirdRun(keepsMemory: boolean): Promise<number | null> {
    const pool = openPostgres(database.url!, 1, { keepsMemory });
    try {
      return await pool.db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
        const pid = rows[0]!.pid;
        if (!existsSync(`/proc/${pid}/stat`)) return null;
        await tx.execute(SORT);
        await tx.execute(SORT);
        const before = faults(pid);
        await tx.execute(SORT);
        return faults(pid) - before;
      });
    } finally {
      await pool.close();
    }
  }

  it('reuses a query\'s memory at its next run, where one opened without it asks the system for it again', async () => {
    const kept = await faultsOfThirdRun(true);
    const given = await faultsOfThirdRun(false);
    if (kept === null || given === null) return void console.warn('skipping: PostgreSQL runs on another machine');
    // 869 faults a run without (about 3.4 MB), none with, on this project's machines.
    expect(given).toBeGreaterThan(300);
    expect(kept).toBeLessThan(50);
  });
});
