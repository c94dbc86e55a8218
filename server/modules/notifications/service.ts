import { and, asc, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { chatUnreadLetters, notifications } from '../../db/schema/notifications.ts';
import { chatMembers, chats, messages } from '../../db/schema/chat.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest } from '../../lib/http.ts';
import { displayName } from '../../lib/text.ts';
import { systemActor, userActor } from '../../platform/actor.ts';
import type { JobContext } from '../../platform/dispatcher.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { readUnsubscribeToken, wantsEmail, type Letters } from '../../platform/letters/index.ts';
import { presentNotification, unreadCounts } from '../../platform/notices.ts';
import { cursorPosition, keysetAfter, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { NOTIFICATION_KINDS } from '#contract/auth';
import { NOTIFICATION_MESSAGES, type Notification } from '#contract/notifications';
import { notificationPolicy } from './policy.ts';

// In-app notifications (ADR 030). They are written by the letters module's `notify`, in the transaction of the
// change they tell of (server/platform/notices.ts); this module reads them, marks them read, switches letters off
// from an unsubscribe link, and sends the letter about chat messages left unread by a member who is offline.

/** The job that decides, a while after a message, whether its recipient gets a letter about it. */
export const UNREAD_LETTER_JOB = 'notifications.unreadLetter';

const PAGE_KEYS = [
  { expr: notifications.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: notifications.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];

/** How much of each unseen message the letter quotes, and how many. */
const QUOTED_LINES = 3;
const QUOTED_CHARS = 200;

export interface NotificationDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Pick<Realtime, 'onlineAmong'>;
  /** Signs the unsubscribe links (the letters module's secret). */
  secret: string;
  log: Logger;
}

export class NotificationService {
  constructor(private readonly deps: NotificationDeps) {
    deps.platform.dispatcher.handle<{ chatId: string; userId: string }>(UNREAD_LETTER_JOB, (payload, job) =>
      this.unreadLetter(payload, job),
    );
  }

  private get db() {
    return this.deps.db;
  }

  /** GET /api/notifications: the person's notifications, newest first (keyset), with their unread count. */
  async list(
    user: UserRow,
    query: { cursor?: string; limit: number },
  ): Promise<{ result: Notification[]; next: string | null; unread: number }> {
    const after = query.cursor
      ? keysetAfter(PAGE_KEYS, cursorPosition(query.cursor, 'notifications', PAGE_KEYS))
      : undefined;
    const rows = await this.db
      .select({ row: notifications, key: timestampKey(notifications.createdAt) })
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), after))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => ['notifications', r.key, r.row.id]);
    return { result: kept.map((r) => presentNotification(r.row)), next, unread: await this.unread(user.id) };
  }

  async unread(userId: string): Promise<number> {
    return (await unreadCounts(this.db, [userId])).get(userId) ?? 0;
  }

  /** PUT /api/notifications/{id}/read: marks one read; the person's other tabs hear the new count. */
  async read(user: UserRow, id: string): Promise<Notification> {
    return this.deps.platform.withTx(userActor(user), async ({ tx, outbox, clock }) => {
      const [found] = await tx.select().from(notifications).where(eq(notifications.id, id)).for('update').limit(1);
      const row = notificationPolicy.authorize(user, 'read', found);
      if (row.readAt) return presentNotification(row);
      const [updated] = await tx
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(eq(notifications.id, id))
        .returning();
      outbox.emit([user.id], 'notifications', {
        unread: (await unreadCounts(tx, [user.id])).get(user.id) ?? 0,
        notification: null,
      });
      return presentNotification(updated!);
    });
  }

  /** PUT /api/notifications/read: marks all of the person's notifications read. */
  async readAll(user: UserRow): Promise<{ unread: number }> {
    return this.deps.platform.withTx(userActor(user), async ({ tx, outbox, clock }) => {
      const marked = await tx
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(and(eq(notifications.userId, user.id), isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      if (marked.length) outbox.emit([user.id], 'notifications', { unread: 0, notification: null });
      return { unread: 0 };
    });
  }

  /** What an unsubscribe token names: the person (still there) and the preference, or a 400. */
  private async fromToken(db: Db, token: string) {
    const named = readUnsubscribeToken(this.deps.secret, token);
    const invalid = () => badRequest(NOTIFICATION_MESSAGES.badToken, { token: [NOTIFICATION_MESSAGES.badToken] });
    // Only a token we signed reaches the query, so its user id is a uuid.
    if (!named) throw invalid();
    const [user] = await db.select().from(users).where(eq(users.id, named.userId)).limit(1);
    if (!user) throw invalid();
    return { user, kind: named.kind };
  }

  /** GET /api/notifications/unsubscribe?token=: what the link switches off (the confirmation page). */
  async unsubscribeInfo(token: string): Promise<{ kind: string; title: string }> {
    const { kind } = await this.fromToken(this.db, token);
    return { kind, title: NOTIFICATION_KINDS[kind] };
  }

  /** POST /api/notifications/unsubscribe { token }: switches the preference the token names off. */
  async unsubscribe(token: string): Promise<{ kind: string; title: string }> {
    return this.deps.platform.withTx(systemActor('unsubscribe'), async ({ tx }) => {
      const { user, kind } = await this.fromToken(tx, token);
      // One key of the jsonb set in place: a concurrent change of another preference is kept.
      await tx
        .update(users)
        .set({
          preferences: sql`jsonb_set(coalesce(${users.preferences}, '{}'::jsonb), '{emailNotifications}', coalesce(${users.preferences} -> 'emailNotifications', '{}'::jsonb) || jsonb_build_object(${kind}::text, false))`,
        })
        .where(eq(users.id, user.id));
      return { kind, title: NOTIFICATION_KINDS[kind] };
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // The letter about unread chat messages
  // -------------------------------------------------------------------------------------------------------

  /**
   * After messages were sent (the chat's fan-out, a batch at a time): for each recipient, a job a few minutes later
   * that sends them a letter if they are still offline and the message still unseen. One pending job per chat and
   * recipient (its dedupe key), so a burst of messages makes one letter.
   */
  async messagesSent(sent: { chatId: string; recipientIds: string[] }[]): Promise<void> {
    const pairs = new Map(sent.flatMap(({ chatId, recipientIds }) => recipientIds.map((userId) => [unreadKey(chatId, userId), { chatId, userId }] as const)));
    if (pairs.size === 0) return;
    const delay = await this.deps.settings.get('notifications.unreadLetterDelayMinutes');
    await this.deps.platform.withTx(systemActor('chat.unread'), async ({ outbox }) => {
      for (const [key, payload] of pairs) outbox.job(UNREAD_LETTER_JOB, payload, { delayMs: delay * 60_000, dedupeKey: key });
    });
  }

  private async unreadLetter({ chatId, userId }: { chatId: string; userId: string }, job: JobContext): Promise<void> {
    const [recipient] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!recipient || recipient.blockedAt || !wantsEmail(recipient, 'messages')) return;
    // Online, they see the chat's counters: no letter.
    const online = await this.deps.realtime.onlineAmong([userId]);
    if (online.has(userId)) return;

    const [membership] = await this.db
      .select({ clearedAt: chatMembers.clearedAt, kind: chats.kind })
      .from(chatMembers)
      .innerJoin(chats, eq(chats.id, chatMembers.chatId))
      .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, userId)))
      .limit(1);
    if (!membership) return;
    const unseen = and(
      eq(messages.chatId, chatId),
      ne(messages.senderId, userId),
      eq(messages.seen, false),
      membership.clearedAt ? gt(messages.createdAt, membership.clearedAt) : undefined,
    );
    const [{ n } = { n: 0 }] = await this.db.select({ n: count() }).from(messages).where(unseen);
    if (n === 0) return;

    const interval = (await this.deps.settings.get('notifications.unreadLetterIntervalMinutes')) * 60_000;
    const first = await this.db
      .select({ message: messages.message, name: users.name, surname: users.surname, userName: users.userName })
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(unseen)
      .orderBy(asc(messages.createdAt), asc(messages.id))
      .limit(QUOTED_LINES);

    await job.withTx(async ({ tx, outbox, clock }) => {
      const now = clock.now();
      const [last] = await tx
        .select()
        .from(chatUnreadLetters)
        .where(and(eq(chatUnreadLetters.chatId, chatId), eq(chatUnreadLetters.userId, userId)))
        .for('update');
      if (last && now.getTime() - last.sentAt.getTime() < interval) {
        // A letter about this chat went out less than the interval ago: ask again when it has passed.
        outbox.job(
          UNREAD_LETTER_JOB,
          { chatId, userId },
          { at: new Date(last.sentAt.getTime() + interval), dedupeKey: unreadKey(chatId, userId) },
        );
        return;
      }
      await tx
        .insert(chatUnreadLetters)
        .values({ chatId, userId, sentAt: now })
        .onConflictDoUpdate({ target: [chatUnreadLetters.chatId, chatUnreadLetters.userId], set: { sentAt: now } });
      const sender = first[0]!;
      this.deps.letters.notify(outbox, recipient, 'chat.unread', {
        from: displayName(sender),
        lines: first.map((m) => quote(m.message)).filter(Boolean),
        count: n,
        chatId,
        orderChat: membership.kind === 'order',
      });
    });
  }
}

const unreadKey = (chatId: string, userId: string) => `${UNREAD_LETTER_JOB}:${chatId}:${userId}`;

/** The first line of a message, shortened; an attachment-only message reads as such. */
function quote(message: string): string {
  const line = message.trim().split('\n', 1)[0]!.trim();
  if (!line) return '📎 Вложение';
  return line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS - 1)}…` : line;
}
