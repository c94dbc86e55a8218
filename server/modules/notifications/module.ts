import { defineModule } from '../../platform/module.ts';
import { NotificationService } from './service.ts';
import { UNREAD_LETTER_JOB } from './unread-letter.ts';
import { notificationRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    notifications: NotificationService;
  }
}

export const notificationsModule = defineModule({
  name: 'notifications',
  create: ({ db, env, log, services: { platform, settings, letters, realtime } }) => ({
    notifications: new NotificationService({ db, platform, settings, letters, realtime, secret: env.JWT_SECRET, log }),
  }),
  routes: (app, { services: { notifications }, reads }) => app.register(notificationRoutes, { notifications, reads }),
  subscribe({ services: { platform, notifications } }) {
    platform.dispatcher.handle<{ chatId: string; userId: string }>(UNREAD_LETTER_JOB, (payload, job) => notifications.sendUnreadLetter(payload, job));
  },
});
