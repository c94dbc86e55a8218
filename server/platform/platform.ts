import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { systemClock, type Clock } from './clock.ts';
import { Dispatcher, type DispatcherOptions } from './dispatcher.ts';
import { createWithTx, type WithTx } from './tx.ts';
import { ProcessIdentity } from './instance.ts';

/** The layer under the features: transactions with their outbox, and the dispatcher that delivers it. */
export interface Platform {
  withTx: WithTx;
  dispatcher: Dispatcher;
  clock: Clock;
  /** This process and the instance it is (ADR 061): the owner of its leases. */
  identity: ProcessIdentity;
}

export function createPlatform(opts: {
  db: Db;
  log: Logger;
  clock?: Clock;
  identity?: ProcessIdentity;
  /** Poll interval, batch size, lease, attempts and backoff of the dispatcher. */
  dispatcher?: Partial<Omit<DispatcherOptions, 'db' | 'withTx' | 'log' | 'clock' | 'identity'>>;
}): Platform {
  const clock = opts.clock ?? systemClock;
  const identity = opts.identity ?? new ProcessIdentity();
  // A commit with rows due now nudges this instance's dispatcher: no wait for the next poll.
  const withTx = createWithTx({ db: opts.db, clock, onCommit: (_rows, dueNow) => dueNow && dispatcher.nudge() });
  const dispatcher = new Dispatcher({ ...opts.dispatcher, db: opts.db, withTx, log: opts.log, clock, identity });
  return { withTx, dispatcher, clock, identity };
}
