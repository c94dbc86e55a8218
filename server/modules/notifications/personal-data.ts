import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { notifications } from './schema.ts';

/** The person's notifications, for their personal-data export (ADR 052). */
export function notificationsOfPerson(db: Db, userId: string) {
  return db
    .select({ id: notifications.id, kind: notifications.kind, text: notifications.text, link: notifications.link, readAt: notifications.readAt, createdAt: notifications.createdAt })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(notifications.createdAt);
}

/** A deleted account's notifications are dropped (ADR 052). */
export async function dropNotificationsOf(tx: Tx, userId: string) {
  await tx.delete(notifications).where(eq(notifications.userId, userId));
}
