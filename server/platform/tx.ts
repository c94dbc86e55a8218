import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { ScopedStorage } from '../lib/scoped-storage.ts';
import { outbox as outboxTable, type NewOutboxRow } from './schema.ts';
import type { Actor } from './actor.ts';
import type { Clock } from './clock.ts';
import { OutboxBuffer, type OutboxWriter } from './outbox.ts';
import { writeNotices } from './notices.ts';

/** A Drizzle transaction. It is a `Db` too: query helpers that take a `Db` accept it without a cast. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Everything a command needs: its transaction, who acts, where its side effects go, and the time. */
export interface TxContext {
  tx: Tx;
  actor: Actor;
  outbox: OutboxWriter;
  clock: Clock;
  /**
   * Writes the notifications and outbox rows queued so far now, not at the commit: before a lock held until the
   * commit (the ledger chain's, ADR 025), so that the lock is not held while they are written. What is queued
   * afterwards is written at the commit, as usual.
   */
  writeQueued: () => Promise<void>;
}

/**
 * Runs `fn` in a transaction and commits it with the outbox rows `fn` queued. Called inside another `withTx`
 * (directly or through commands it calls) it joins the outer transaction: one commit, one set of rows, with the
 * inner call's actor. `config` applies to an outermost call only.
 *
 * PGlite has a single connection and every other query waits while a transaction is open: do no slow I/O (mail,
 * HTTP, files) inside `fn`; queue it on the outbox instead.
 */
export interface WithTx {
  <T>(actor: Actor, fn: (ctx: TxContext) => Promise<T>, config?: PgTransactionConfig): Promise<T>;
  /**
   * The transaction open in the caller's async context, if any. A read made inside it must go through it: on
   * PGlite (one connection) a read through the pool waits for that very transaction, which waits for the read.
   */
  current(): Tx | undefined;
}

interface Open {
  tx: Tx;
  buffer: OutboxBuffer;
  /** False once the outer transaction has ended: work that outlived it must not join it. */
  open: boolean;
  writeQueued: () => Promise<void>;
}

export interface WithTxDeps {
  db: Db;
  clock: Clock;
  /** Called after a commit that wrote rows; `dueNow` when one of them is due at once (the dispatcher's nudge). */
  onCommit?: (rows: NewOutboxRow[], dueNow: boolean) => void;
}

export function createWithTx(deps: WithTxDeps): WithTx {
  // Enabled only while a transaction's work runs (ADR 084).
  const current = new ScopedStorage<Open>();

  const withTx = async function withTx<T>(actor: Actor, fn: (ctx: TxContext) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
    const outer = current.getStore();
    if (outer?.open) return fn({ tx: outer.tx, actor, outbox: outer.buffer, clock: deps.clock, writeQueued: outer.writeQueued });

    const buffer = new OutboxBuffer(deps.clock);
    const rows: NewOutboxRow[] = [];
    let state: Open | undefined;
    try {
      const result = await deps.db.transaction(async (tx) => {
        /** Writes what is queued; `last` at the commit, after which the buffer takes no more. */
        const write = async (last: boolean) => {
          // In-app notifications: their rows in this transaction, their socket events as outbox rows.
          const notices = buffer.takeNotices();
          if (notices.length) await writeNotices(tx, buffer, notices);
          const queued = buffer.take(last);
          // Without a target: a job whose dedupe key is already pending is dropped, whichever index says so.
          if (queued.length) await tx.insert(outboxTable).values(queued).onConflictDoNothing();
          rows.push(...queued);
        };
        const writeQueued = () => write(false);
        const open: Open = { tx, buffer, open: true, writeQueued };
        state = open;
        const value = await current.run(open, () => fn({ tx, actor, outbox: buffer, clock: deps.clock, writeQueued }));
        await write(true);
        return value;
      }, config);
      if (rows.length) {
        const now = deps.clock.now().getTime();
        deps.onCommit?.(rows, rows.some((r) => (r.dueAt as Date).getTime() <= now));
      }
      return result;
    } finally {
      if (state) state.open = false;
      buffer.close();
    }
  };
  return Object.assign(withTx, {
    current: () => {
      const open = current.getStore();
      return open?.open ? open.tx : undefined;
    },
  });
}
