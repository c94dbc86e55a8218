import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withNamedStatements } from './pglite-statements.ts';
import { WaitsForItsOwnTransaction } from './own-transaction.ts';

// PGlite as drizzle sees it, with a named statement per SQL text (issue 31): it must answer exactly as PGlite's own
// query() does, rows, types, errors and locks included. Every database test runs the app through it too.

let pg: PGlite;
const prepared = async () =>
  (
    await pg.query<{ statement: string }>('select statement from pg_prepared_statements order by prepare_time')
  ).rows.map((r) => r.statement);

beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(`create table t (
    id serial primary key, name text unique, at timestamptz default now(), tags text[], data jsonb, n numeric,
    ok boolean, big bigint
  )`);
}, 60_000);
afterAll(() => pg.close());

describe('withNamedStatements', () => {
  it('answers as query() does: rows in both row modes, every type, nulls, parsers given, the command and count', async () => {
    const client = withNamedStatements(pg);
    const insert = 'insert into t (name, tags, data, n, ok, big) values ($1, $2, $3, $4, $5, $6) returning id, name';
    const inserted = await client.query(insert, ['а', ['x', 'y'], { k: [1, 'б'] }, '1.50', true, 2n ** 40n]);
    expect(inserted).toMatchObject({ command: 'INSERT', affectedRows: 1, rowCount: 1, rows: [{ name: 'а' }] });
    await client.query(insert, ['б', null, null, null, null, null]);
    for (const options of [undefined, { rowMode: 'array' as const }, { parsers: { 1184: (v: string) => `at ${v}` } }]) {
      const text = 'select * from t where name = any($1) order by id';
      const ours = await client.query(text, [['а', 'б']], options);
      const theirs = await pg.query(text, [['а', 'б']], options);
      expect(ours).toEqual(theirs);
      expect(ours.rows).toHaveLength(2);
    }
    const noChange = 'update t set n = n where name = $1';
    expect(await client.query(noChange, ['а'])).toEqual(await pg.query(noChange, ['а']));
    const updated = await client.query('update t set n = $1 where name = $2', ['2', 'а']);
    expect(updated).toMatchObject({ command: 'UPDATE', affectedRows: 1, rows: [] });
    expect(await prepared()).toEqual(expect.arrayContaining([insert, 'update t set n = $1 where name = $2']));
  });

  it('parses a text once however often it runs, and keeps `max` statements, closing the least recently used', async () => {
    const client = withNamedStatements(pg, { max: 2 });
    const before = (await prepared()).length;
    for (let i = 0; i < 5; i++) await client.query('select $1::int + 1 as one', [i]);
    expect((await prepared()).length).toBe(before + 1);
    await client.query('select $1::int + 2 as two', [1]);
    await client.query('select $1::int + 1 as one', [1]); // used again: the most recent now
    await client.query('select $1::int + 3 as three', [1]);
    const now = await prepared();
    expect(now).toContain('select $1::int + 1 as one');
    expect(now).toContain('select $1::int + 3 as three');
    expect(now).not.toContain('select $1::int + 2 as two');
  });

  it('reports a failed statement as query() does, keeps no statement that does not parse, and goes on', async () => {
    const client = withNamedStatements(pg);
    const duplicate = client.query('insert into t (name) values ($1)', ['а']);
    await expect(duplicate).rejects.toMatchObject({
      code: '23505',
      query: 'insert into t (name) values ($1)',
      params: ['а'],
    });
    await expect(client.query('select nonsense from t')).rejects.toMatchObject({ code: '42703' });
    expect(await prepared()).not.toContain('select nonsense from t');
    expect((await client.query('select count(*)::int as c from t')).rows).toEqual([{ c: 2 }]);
  });

  it('runs in a transaction: committed, rolled back on a throw, and nothing else runs in between', async () => {
    const client = withNamedStatements(pg);
    const read = async () => (await client.query<{ n: string }>('select n from t where name = $1', ['а'])).rows[0]!.n;
    await client.transaction(async (tx) => {
      await tx.query('update t set n = $1 where name = $2', ['3', 'а']);
    });
    expect(await read()).toBe('3');
    await expect(
      client.transaction(async (tx) => {
        await tx.query('update t set n = $1 where name = $2', ['4', 'а']);
        throw new Error('передумали');
      }),
    ).rejects.toThrow('передумали');
    expect(await read()).toBe('3');

    // A read from outside waits for the transaction's end, as with query().
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('update t set n = $1 where name = $2', ['5', 'а']);
      await open;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await transaction;
    expect(await outside).toBe('5');
  });

  it("refuses at once a query through itself from inside a transaction's work, which would wait for it forever", async () => {
    const client = withNamedStatements(pg);
    let late: Promise<unknown> | undefined;
    const done = client.transaction(async (tx) => {
      await tx.query('update t set n = $1 where name = $2', ['6', 'а']);
      await expect(client.query('select n from t where name = $1', ['а'])).rejects.toBeInstanceOf(WaitsForItsOwnTransaction);
      await expect(client.query('select 1 as one')).rejects.toBeInstanceOf(WaitsForItsOwnTransaction);
      await expect(client.transaction(async () => {})).rejects.toBeInstanceOf(WaitsForItsOwnTransaction);
      // Work the transaction started and did not wait for: it runs once the transaction has ended.
      late = Promise.resolve().then(async () => {
        await done;
        return (await client.query<{ n: string }>('select n from t where name = $1', ['а'])).rows[0]!.n;
      });
      return 'committed';
    });
    expect(await done).toBe('committed');
    expect(await late).toBe('6');
  });

  it('parses again a statement whose table changed under it, and refuses a closed transaction', async () => {
    const client = withNamedStatements(pg);
    const all = 'select * from t order by id';
    await client.query(all);
    await pg.exec('alter table t add column extra int default 7');
    // PostgreSQL refuses a cached plan whose columns changed: that run fails, the next is parsed anew.
    const first = await client.query<{ extra?: number }>(all).catch((err: { code: string }) => err.code);
    const second = await client.query<{ extra?: number }>(all);
    expect(first === '0A000' || (first as { rows: { extra?: number }[] }).rows[0]!.extra === 7).toBe(true);
    expect(second.rows[0]!.extra).toBe(7);

    let kept: Parameters<Parameters<typeof client.transaction>[0]>[0] | undefined;
    await client.transaction(async (tx) => void (kept = tx));
    await expect(kept!.query('select 1 as one')).rejects.toThrow('Transaction is closed');
  });
});
