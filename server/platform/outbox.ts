import type { ServerEvent, ServerEventArgs } from '#contract/events';
import type { Letter } from '../lib/mail.ts';
import type { Clock } from './clock.ts';
import type { NewOutboxRow } from './schema.ts';

/** When a job runs: at a time, after a delay, or (neither) as soon as its transaction has committed. */
export interface JobOptions {
  at?: Date;
  delayMs?: number;
  /**
   * At most one waiting row per key: a second job with a key already waiting is dropped. A row being run no longer
   * holds its key (its handler may have looked already): a job written meanwhile is kept (ADR 092).
   */
  dedupeKey?: string;
}

/** What the dispatcher finds in each kind's payload (a socket row's name is its event). */
export interface SocketPayload {
  userIds: string[];
  /** The event's payload, checked against its schema (contract/events.ts) before it is sent. */
  payload: unknown;
}
export interface LetterPayload {
  to: string;
  letter: Letter;
}
/** An in-app notification (ADR 030): its kind (the letter kind it came with), its text and the path it opens. */
export interface Notice {
  kind: string;
  text: string;
  link: string;
}
/** A notification queued for one person. */
export interface QueuedNotice extends Notice {
  userId: string;
}

/**
 * Side effects of a command, written as outbox rows in the command's own transaction: they happen after it commits
 * and never when it rolls back. The calls only queue; the rows are inserted just before the commit.
 */
export interface OutboxWriter {
  /** A Socket.IO event (contract/events.ts) to every socket of these users, on any instance. */
  emit<E extends ServerEvent>(userIds: readonly string[], event: E, ...args: ServerEventArgs<E>): void;
  /** A letter, handed to the mailer (SMTP or the outbox folder). */
  mail(to: string, letter: Letter): void;
  /**
   * An in-app notification: its row is written in this transaction (just before the commit, with the outbox rows),
   * and the person hears of it live (the `notifications` socket event) after the commit. Modules call the letters
   * module's `notify`, which writes it together with the letter.
   */
  notify(userId: string, notice: Notice): void;
  /** A job run by the handler registered under `name`, now or later. */
  job(name: string, payload?: unknown, opts?: JobOptions): void;
}

/** Queues rows in memory for one transaction; `take()` hands them over for the insert before the commit. */
export class OutboxBuffer implements OutboxWriter {
  private rows: NewOutboxRow[] = [];
  private notices: QueuedNotice[] = [];
  private closed = false;

  constructor(private readonly clock: Clock) {}

  emit<E extends ServerEvent>(userIds: readonly string[], event: E, ...[payload]: ServerEventArgs<E>) {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return;
    this.push({ kind: 'socket', name: event, payload: { userIds: unique, payload } satisfies SocketPayload });
  }

  mail(to: string, letter: Letter) {
    this.push({ kind: 'letter', name: 'letter', payload: { to, letter } satisfies LetterPayload });
  }

  notify(userId: string, notice: Notice) {
    if (this.closed) throw new Error(`outbox: notification "${notice.kind}" written after its transaction ended`);
    this.notices.push({ userId, kind: notice.kind, text: notice.text, link: notice.link });
  }

  /** The queued notifications (taken before the rows: their socket events become rows). */
  takeNotices(): QueuedNotice[] {
    const notices = this.notices;
    this.notices = [];
    return notices;
  }

  job(name: string, payload: unknown = {}, opts: JobOptions = {}) {
    const now = this.clock.now().getTime();
    const due = opts.at ? opts.at.getTime() : now + (opts.delayMs ?? 0);
    this.push({ kind: 'job', name, payload, dueAt: new Date(due), dedupeKey: opts.dedupeKey ?? null });
  }

  private push(row: Omit<NewOutboxRow, 'dueAt'> & { dueAt?: Date }) {
    // A write from work that outlived its transaction (a forgotten await) would be lost silently otherwise.
    if (this.closed) throw new Error(`outbox: "${row.name}" written after its transaction ended`);
    this.rows.push({ ...row, dueAt: row.dueAt ?? this.clock.now() });
  }

  /** The rows queued since the last take; with `last`, the buffer takes no more writes afterwards. */
  take(last = true): NewOutboxRow[] {
    if (last) this.closed = true;
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  close() {
    this.closed = true;
    this.rows = [];
    this.notices = [];
  }
}
