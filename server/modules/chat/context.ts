import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Platform } from '../../platform/platform.ts';
import type { WithTx } from '../../platform/tx.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { Message } from '#contract/chat';
import type { SerialBatcher } from './fanout.ts';
import type { MessageRow } from './presenter.ts';
import type { ChatStatements } from './statements.ts';

// What the chat's commands and queries share: the service's dependencies, its prepared statements and its fan-out
// queue. ChatService builds one per instance and hands it to each of them.

export interface ChatDeps {
  db: Db;
  realtime: Pick<Realtime, 'emitToUsers' | 'onlineAmong' | 'afterCommit'>;
  limiter: RateLimiter;
  log: Logger;
  /** The platform's transactions (withTx); a service made without it (a test's) opens its own over `db`. */
  platform?: Pick<Platform, 'withTx'>;
  /** Operator settings; defaults from contract/chat.ts. */
  limits?: { messagesPerWindow?: number; windowMs?: number };
  /**
   * What an order chat shows about its order (the orders feature); by default its id only. Per order, a view for
   * each member (the actions differ between the customer and the seller).
   */
  describeOrders?: (orderIds: string[]) => Promise<Map<string, OrderView>>;
  /**
   * Told, once per fan-out batch, of the messages members wrote (not orders' system messages), each with its chat's
   * other members: the letter about unread messages (ADR 030). Off the send path: one call for a whole batch.
   */
  onSent?: (sent: { chatId: string; recipientIds: string[] }[]) => Promise<void>;
}

/** An order as one member of its chat sees it. */
export type OrderView = (viewerId: string) => Record<string, unknown> & { _id: string };

/** The outbox job that announces a message written inside another module's transaction (postInTx). */
export const CHAT_ANNOUNCE_JOB = 'chat.announce';

export interface Paged<T> {
  result: T[];
  total: number;
}

/** A new message to announce: new_message to every member, get_counters to the others. */
export interface MessageJob {
  kind: 'message';
  chatId: string;
  row: MessageRow;
  message: Message;
}

/** get_counters to one member; `settle` tells the caller it has left (or why not). */
export interface CountersJob {
  kind: 'counters';
  userId: string;
  chatId: string;
  settle: (err?: unknown) => void;
}

export type FanoutJob = MessageJob | CountersJob;

export interface ChatEnv {
  readonly deps: ChatDeps;
  readonly db: Db;
  /** Transactions, the platform's (ChatDeps.platform). */
  readonly withTx: WithTx;
  /** The send path's and the fan-out's statements, built on first use (prepareStatements). */
  readonly statements: ChatStatements;
  /** Socket events of messages and counters, sent in order, one batch at a time (see SerialBatcher). */
  readonly fanout: SerialBatcher<FanoutJob>;
}
