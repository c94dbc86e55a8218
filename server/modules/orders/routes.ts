import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { OrderService } from './service.ts';

/** The orders endpoints (contract/endpoints/orders.ts), the admin area's included (app.ts guards /api/admin). */
export const orderRoutes: FastifyPluginAsync<{ orders: OrderService; reads: ReadHandlers }> = async (app, { orders, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('orders.create', async ({ body, user }) => ok(await orders.create(user, body)));
  on('orders.list', async ({ query, user }) => {
    const { result, total, next } = await orders.list(user, query);
    return { ...ok(result, total), next };
  });
  on('orders.get', async ({ params, user }) => ok(await orders.get(user, params.id)));
  on('orders.deliver', async ({ params, body, user }) => ok(await orders.deliver(user, params.id, body)));
  on('orders.revision', async ({ params, body, user }) => ok(await orders.revision(user, params.id, body)));
  on('orders.accept', async ({ params, user }) => ok(await orders.accept(user, params.id)));
  on('orders.cancel', async ({ params, body, user }) => ok(await orders.cancel(user, params.id, body)));
  on('orders.proposeCancel', async ({ params, body, user }) => ok(await orders.proposeCancel(user, params.id, body)));
  on('orders.answerCancel', async ({ params, body, user }) => ok(await orders.answerCancel(user, params.id, body)));

  on('admin.orders.list', async ({ query, user }) => {
    const { result, total, next } = await orders.adminList(user, query);
    return { ...ok(result, total), next };
  });
  on('admin.orders.get', async ({ params, user }) => ok(await orders.adminGet(user, params.id)));
};
