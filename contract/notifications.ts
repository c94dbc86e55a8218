import { z } from 'zod';
import { okSchema } from './api.ts';

// In-app notifications (PRODUCT.md "Notifications and messages", ADR 030).

export const NOTIFICATION_MESSAGES = {
  notFound: 'Уведомление не найдено',
  badToken: 'Ссылка для отписки недействительна',
} as const;

/** One notification as its person sees it: what happened, and the path of the object it is about. */
export const notificationSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  text: z.string(),
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A page, newest first, with the unread count. */
export const notificationsPageSchema = okSchema(z.array(notificationSchema)).extend({
  next: z.string().nullable(),
  unread: z.number().int(),
});

export const unreadCountSchema = okSchema(z.object({ unread: z.number().int() }));

/** `notifications`: to one person, when one of theirs arrives (with it) or their unread count changes (without). */
export const notificationsEventSchema = z.object({
  unread: z.number().int(),
  notification: notificationSchema.nullable(),
});
export type NotificationsEvent = z.infer<typeof notificationsEventSchema>;

/** The unsubscribe link's token (server/platform/letters/unsubscribe.ts). */
export const unsubscribeBodySchema = z.object({
  token: z.string().min(1, NOTIFICATION_MESSAGES.badToken).max(300, NOTIFICATION_MESSAGES.badToken),
});
export const unsubscribeAnswerSchema = okSchema(z.object({ kind: z.string(), title: z.string() }));
