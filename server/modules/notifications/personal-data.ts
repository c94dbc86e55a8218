import { and, eq, ne, sql } from 'drizzle-orm';
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

/**
 * Other people's notifications that name a deleted account (a new bid «…: Имя Фамилия, …») say «Удалённый пользователь»
 * instead (ADR 052): the name matched as the text it was written with, like the outbox's (platform/forget.ts).
 */
export async function unnameInNotifications(tx: Tx, userId: string, fullName: string) {
  const name = fullName.trim();
  if (name.length < 3) return;
  await tx
    .update(notifications)
    .set({ text: sql`replace(${notifications.text}, ${name}, 'Удалённый пользователь')` })
    .where(and(ne(notifications.userId, userId), sql`strpos(${notifications.text}, ${name}) > 0`));
}

/** A deleted account's notifications are dropped (ADR 052). */
export async function dropNotificationsOf(tx: Tx, userId: string) {
  await tx.delete(notifications).where(eq(notifications.userId, userId));
}
