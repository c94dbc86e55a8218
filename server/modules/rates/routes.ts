import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { RatesService } from './service.ts';

export const ratesRoutes: FastifyPluginAsync<{ rates: RatesService; reads: ReadHandlers }> = async (app, { rates, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('rates.get', async () => ok(await rates.get()));
};
