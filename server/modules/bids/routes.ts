import type { FastifyPluginAsync } from 'fastify';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { BidService } from './service.ts';

/** The bids endpoints (contract/endpoints/bids.ts). */
export const bidRoutes: FastifyPluginAsync<{ bids: BidService; reads: ReadHandlers }> = async (app, { reads }) => {
  void endpointsOf(app, reads);
};
