// In-app notifications: the list, read marks, unsubscribe links and the unread-messages letter (ADR 030).
export { NotificationService, UNREAD_LETTER_JOB } from './service.ts';
export { notificationRoutes } from './routes.ts';
