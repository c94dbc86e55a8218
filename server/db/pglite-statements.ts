import {
  messages,
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { ScopedStorage } from '../lib/scoped-storage.ts';
import { WaitsForItsOwnTransaction } from './own-transaction.ts';

/**
 * PGlite's `query()` sends every statement unnamed, so PostgreSQL parses and plans it on each run: on a rendered page
 * that was most of the CPU its reads took, their execution a tenth of it (bench/pglite-named.ts, issue 31). This is
 * PGlite as drizzle sees it (`query` and `transaction`), with a named statement kept per SQL text: parsed and
 * described once, then each run is bind, execute and sync, and PostgreSQL keeps a generic plan when it costs no more
 * than planning each time (plan_cache_mode auto, as for any prepared statement). The texts are drizzle's, with the
 * values as parameters, so one shape of query is one statement. The least recently used is closed past `max`.
 *
 * It takes PGlite's locks as `query()` does: outside a transaction, the transaction lock and then the query lock,
 * and the file system synced after the run; inside one, the query lock only.
 *
 * A query made outside the transaction from inside its work (through the pool, not its `tx`) would wait for that
 * transaction, which waits for it: the one connection, and with it the whole server, would hang for good. It is
 * refused at once instead, with an error that says so (a 500 for one request, logged with the query).
 */
export function withNamedStatements(pg: PGlite, { max = 256 } = {}): Pick<PGlite, 'query' | 'transaction'> {
  const statements = new Statements(pg, max);
  const cached = (text: string, options?: QueryOptions) => NAMED.test(text) && !options?.blob && !options?.paramTypes;
  /** The transaction whose work is running in this async context, while it is open (enabled only then: ADR 084). */
  const working = new ScopedStorage<{ open: boolean }>();
  return {
    async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
      if (working.getStore()?.open) throw new WaitsForItsOwnTransaction(text);
      if (!cached(text, options)) return await pg.query<T>(text, params, options);
      await pg._checkReady();
      return await pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          try {
            return await statements.run<T>(text, params, options);
          } finally {
            await pg.syncToFs();
          }
        }),
      );
    },
    async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      if (working.getStore()?.open) throw new WaitsForItsOwnTransaction('begin');
      const work = { open: true };
      return await pg.transaction((tx) =>
        working.run(work, () => callback({
          ...tx,
          rollback: () => tx.rollback(),
          listen: (channel, listener) => tx.listen(channel, listener),
          get closed() {
            return tx.closed;
          },
          async query<R>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<R>> {
            if (!cached(text, options)) return await tx.query<R>(text, params, options);
            if (tx.closed) throw new Error('Transaction is closed');
            return await pg._runExclusiveQuery(() => statements.run<R>(text, params, options));
          },
        }).finally(() => {
          work.open = false;
        })),
      );
    },
  } as Pick<PGlite, 'query' | 'transaction'>;
}


/** The named statements of one PGlite, by SQL text; every method runs under PGlite's query lock. */
class Statements {
  /** Least recently used first (a Map keeps the order of insertion). */
  private readonly byText = new Map<string, Statement>();

  constructor(
    private readonly pg: PGlite,
    private readonly max: number,
  ) {}

  /** One run of `text`; a failed statement's error as PGlite's `query()` gives it, and a stale statement dropped. */
  async run<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    try {
      return await this.execute<T>(text, params, options);
    } catch (err) {
      if (!(err instanceof messages.DatabaseError)) throw err;
      // A table whose columns changed under a statement (a migration): parsed again at its next run.
      if (err.code === STALE_PLAN) await this.forget(text);
      throw Object.assign(err, { query: text, params, queryOptions: options });
    }
  }

  private async execute<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    let statement = this.byText.get(text);
    if (statement) {
      // Used: to the end of the order.
      this.byText.delete(text);
      this.byText.set(text, statement);
    } else {
      statement = await this.prepare(text, options);
    }
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.types[i]!;
      const serializer = options?.serializers?.[oid] ?? this.pg.serializers[oid];
      return serializer ? serializer(param) : String(param);
    });
    const { serialize } = protocol;
    const replies = await this.send(
      concat(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()),
      options,
    );
    return this.results<T>(statement.fields, replies, options);
  }

  private async prepare(text: string, options?: QueryOptions): Promise<Statement> {
    const name = `podryad_${++statementCount}`;
    const { serialize } = protocol;
    const replies = await this.send(
      concat(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()),
      options,
    );
    const description = replies.find((m) => m instanceof messages.RowDescriptionMessage);
    const fields = description?.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) ?? [];
    const statement = { name, types: parse.parseDescribeStatementResults(replies), fields };
    this.byText.set(text, statement);
    if (this.byText.size > this.max) await this.forget(this.byText.keys().next().value!);
    return statement;
  }

  /**
   * The result of one run, as PGlite's `parseResults` makes it, with the columns' description kept from the
   * statement's Describe. Not parseResults itself: given a query's own parsers (drizzle gives every query some), it
   * copies PGlite's whole table of parsers, a few hundred entries, once per query: 5 % of a rendered page's CPU.
   */
  private results<T>(
    fields: Statement['fields'],
    replies: messages.BackendMessage[],
    options?: QueryOptions,
  ): Results<T> {
    const parsers = fields.map((f) => options?.parsers?.[f.dataTypeID] ?? this.pg.parsers[f.dataTypeID]);
    const value = (text: string | null, i: number) =>
      text === null ? null : parsers[i] ? parsers[i](text, fields[i]!.dataTypeID) : text;
    const rows: unknown[] = [];
    let result: Results<T> = { rows: [], fields, affectedRows: 0 };
    for (const reply of replies) {
      if (reply instanceof messages.DataRowMessage) {
        const values = reply.fields as (string | null)[];
        if (options?.rowMode === 'array') rows.push(values.map(value));
        else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i++) row[fields[i]!.name] = value(values[i]!, i);
          rows.push(row);
        }
      } else if (reply instanceof messages.CommandCompleteMessage) {
        // "SELECT 2", "UPDATE 3", "INSERT 0 5": the count is the last word; PGlite counts only writes as affected.
        const words = reply.text.split(' ');
        const command = words[0]!;
        const count = parseInt(words[words.length - 1]!, 10);
        const affectedRows = WRITES.has(command) ? count : 0;
        result = {
          rows: rows as T[],
          fields,
          command,
          affectedRows,
          ...(Number.isNaN(count) ? {} : { rowCount: count }),
        };
      }
    }
    return result;
  }

  private async forget(text: string) {
    const statement = this.byText.get(text);
    if (!statement) return;
    this.byText.delete(text);
    // The name is never used again: closing it only frees PostgreSQL's memory, so a failure is of no consequence.
    const { serialize } = protocol;
    await this.send(concat(serialize.close({ type: 'S', name: statement.name }), serialize.sync())).catch(() => {});
  }

  private send(message: Uint8Array, options?: QueryOptions) {
    const onNotice = options?.onNotice;
    return this.pg.execProtocolStream(message, { syncToFs: false, ...(onNotice ? { onNotice } : {}) });
  }
}

interface Statement {
  name: string;
  /** The parameters' type OIDs, which pick each value's serializer. */
  types: number[];
  /** Its rows' columns, from its Describe (none for a write without RETURNING). */
  fields: { name: string; dataTypeID: number }[];
}

/** Reads and writes: what drizzle sends with parameters. Anything else (BEGIN, SET, DDL, savepoints) goes unnamed. */
const NAMED = /^\s*(?:select|insert|update|delete|with)\b/i;

/** Statements' names: one counter for the process, so that two of these on one PGlite (tests) never share one. */
let statementCount = 0;

/** The commands whose count PGlite reports as affected rows. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** "cached plan must not change result type". */
const STALE_PLAN = '0A000';

function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
