import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { systemClock, type Clock } from './clock.ts';
import { Dispatcher, type DispatcherOptions } from './dispatcher.ts';
import { createWithTx, type WithTx } from './tx.ts';

/** The layer under the features: transactions with their outbox, and the dispatcher that delivers it. */
export interface Platform {
  withTx: WithTx;
  dispatcher: Dispatcher;
  clock: Clock;
}

export function createPlatform(opts: {
  db: Db;
  log: Logger;
  clock?: Clock;
  /** Poll interval, batch size, lease, attempts and backoff of the dispatcher. */
  dispatcher?: Partial<Omit<DispatcherOptions, 'db' | 'withTx' | 'log' | 'clock'>>;
}): Platform {
  const clock = opts.clock ?? systemClock;
  // A commit with rows due now nudges this instance's dispatcher: no wait for the next poll.
  const withTx = createWithTx({ db: opts.db, clock, onCommit: (_rows, dueNow) => dueNow && dispatcher.nudge() });
  const dispatcher = new Dispatcher({ ...opts.dispatcher, db: opts.db, withTx, log: opts.log, clock });
  return { withTx, dispatcher, clock };
}
