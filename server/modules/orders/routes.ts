import type { FastifyPluginAsync } from 'fastify';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { OrderService } from './service.ts';

/** The orders endpoints (contract/endpoints/orders.ts). */
export const orderRoutes: FastifyPluginAsync<{ orders: OrderService; reads: ReadHandlers }> = async (app, { reads }) => {
  void endpointsOf(app, reads);
};
