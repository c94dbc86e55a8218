// In-app notifications: the list, read marks, unsubscribe links and the unread-messages letter (ADR 030).
export { NotificationService } from './service.ts';
export { UNREAD_LETTER_JOB } from './unread-letter.ts';
export { notificationRoutes } from './routes.ts';
export { notificationsModule } from './module.ts';
export { notificationsOfPerson, dropNotificationsOf, unnameInNotifications } from './personal-data.ts';
