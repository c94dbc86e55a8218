import { and, desc, eq, isNull } from 'drizzle-orm';
import { notifications } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import type { JobContext } from '../../platform/dispatcher.ts';
import { userActor } from '../../platform/actor.ts';
import { presentNotification, unreadCounts } from '../../platform/notices.ts';
import { cursorPosition, keysetAfter, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import type { Notification } from '#contract/notifications';
import type { NotificationDeps } from './context.ts';
import { notificationPolicy } from './policy.ts';
import { scheduleUnreadLetters, sendUnreadLetter } from './unread-letter.ts';
import { unsubscribe, unsubscribeInfo } from './unsubscribe.ts';

// In-app notifications (ADR 030). They are written by the letters module's `notify`, in the transaction of the
// change they tell of (server/platform/notices.ts); this module reads them, marks them read, switches letters off
// from an unsubscribe link (unsubscribe.ts), and sends the letter about chat messages left unread by a member who is
// offline (unread-letter.ts).

const PAGE_KEYS = [
  { expr: notifications.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: notifications.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];

export class NotificationService {
  constructor(private readonly deps: NotificationDeps) {}

  /** The job UNREAD_LETTER_JOB: the letter about a chat's messages still unseen (ADR 030). */
  sendUnreadLetter(payload: { chatId: string; userId: string }, job: JobContext): Promise<void> {
    return sendUnreadLetter(this.deps, payload, job);
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

  /** GET /api/notifications/unsubscribe?token=: what the link switches off (the confirmation page). */
  unsubscribeInfo(token: string): Promise<{ kind: string; title: string }> {
    return unsubscribeInfo(this.deps, token);
  }

  /** POST /api/notifications/unsubscribe { token }: switches the preference the token names off. */
  unsubscribe(token: string): Promise<{ kind: string; title: string }> {
    return unsubscribe(this.deps, token);
  }

  /** After messages were sent: a letter a few minutes later to each recipient still offline (unread-letter.ts). */
  messagesSent(sent: { chatId: string; recipientIds: string[] }[]): Promise<void> {
    return scheduleUnreadLetters(this.deps, sent);
  }
}
