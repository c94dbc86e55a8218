import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { NotificationService } from './service.ts';

/** In-app notifications of the signed-in person, and the letters' unsubscribe link (ADR 030). */
export const notificationRoutes: FastifyPluginAsync<{
  notifications: NotificationService;
  reads: ReadHandlers;
}> = async (app, { notifications, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('notifications.list', async ({ query, user }) => {
    const { result, next, unread } = await notifications.list(user, query);
    return { status: 200, result, next, unread };
  });
  on('notifications.unread', async ({ user }) => ok({ unread: await notifications.unread(user.id) }));
  on('notifications.read', async ({ params, user }) => ok(await notifications.read(user, params.id)));
  on('notifications.readAll', async ({ user }) => ok(await notifications.readAll(user)));
  on('notifications.unsubscribeInfo', async ({ query }) => ok(await notifications.unsubscribeInfo(query.token)));
  on('notifications.unsubscribe', async ({ body }) => ok(await notifications.unsubscribe(body.token)));
};
