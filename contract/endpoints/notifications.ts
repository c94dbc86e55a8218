import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import {
  notificationSchema,
  notificationsPageSchema,
  notificationsQuerySchema,
  unreadCountSchema,
  unsubscribeAnswerSchema,
  unsubscribeBodySchema,
} from '../notifications.ts';

const tags = ['notifications'];

/** In-app notifications of the signed-in person (ADR 030), and the letters' unsubscribe link. */
export const notificationEndpoints = defineEndpoints({
  'notifications.list': { access: 'user', tags, query: notificationsQuerySchema, response: notificationsPageSchema },
  'notifications.unread': { access: 'user', tags, response: unreadCountSchema },
  'notifications.read': { access: 'user', tags, params: idParams, response: okSchema(notificationSchema) },
  'notifications.readAll': { access: 'user', tags, response: unreadCountSchema },
  /** What an unsubscribe link would switch off (the confirmation page), without switching it. */
  'notifications.unsubscribeInfo': {
    access: 'public',
    tags,
    query: unsubscribeBodySchema,
    response: unsubscribeAnswerSchema,
  },
  /** Switches one email preference off for the person the signed token names; no sign-in. */
  'notifications.unsubscribe': {
    access: 'public',
    tags,
    body: unsubscribeBodySchema,
    response: unsubscribeAnswerSchema,
  },
});
