import type { FastifyPluginAsync } from 'fastify';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { PaymentService } from './service.ts';

/** The payments, finance and withdrawals endpoints (contract/endpoints/payments.ts). */
export const paymentRoutes: FastifyPluginAsync<{ payments: PaymentService; reads: ReadHandlers }> = async (app, { reads }) => {
  void endpointsOf(app, reads);
};
