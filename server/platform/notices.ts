import { and, count, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { notifications, type NotificationRow } from '../modules/notifications/schema.ts';
import type { Db } from '../db/client.ts';
import type { Notification } from '#contract/notifications';
import type { OutboxWriter, QueuedNotice } from './outbox.ts';

/** A notification as its person sees it (the list, the socket event). */
export function presentNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    kind: row.kind,
    text: row.text,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Unread counts of these people (0 for those with none). */
export async function unreadCounts(db: Db, userIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: notifications.userId, n: count() })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds), isNull(notifications.readAt)))
    .groupBy(notifications.userId);
  const counts = new Map(userIds.map((id) => [id, 0]));
  for (const r of rows) counts.set(r.userId, r.n);
  return counts;
}

/**
 * Writes a transaction's notifications (ADR 030), just before its commit, and queues for each one the
 * `notifications` socket event to its person with their unread count: it leaves after the commit, never on a
 * rollback. One statement: the rows it inserts are not yet visible to its own count, so they are added to it.
 */
export async function writeNotices(tx: Db, outbox: OutboxWriter, notices: QueuedNotice[]): Promise<void> {
  const inserted = tx.$with('inserted').as(tx.insert(notifications).values(notices).returning());
  const mine = (table: SQL, unreadOnly: boolean) =>
    sql`(select count(*)::int from ${table} as n where n.user_id = ${inserted.userId}${unreadOnly ? sql` and n.read_at is null` : sql``})`;
  const rows = await tx
    .with(inserted)
    .select({
      row: { id: inserted.id, userId: inserted.userId, kind: inserted.kind, text: inserted.text, link: inserted.link, readAt: inserted.readAt, createdAt: inserted.createdAt },
      unread: sql<number>`${mine(sql`${notifications}`, true)} + ${mine(sql`inserted`, false)}`,
    })
    .from(inserted);
  for (const { row, unread } of rows) outbox.emit([row.userId], 'notifications', { unread, notification: presentNotification(row) });
}
