import type { FastifyPluginAsync } from 'fastify';
import { DEFAULT_PAYMENT_RATES } from '#contract/payments';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';

// SPEC §7: the ways to pay, fetched by the client at sign-in. The payments issue makes them operator settings.
export const paymentRatesRoutes: FastifyPluginAsync<{ reads: ReadHandlers }> = async (app, { reads }) => {
  const { on } = endpointsOf(app, reads);
  on('payments.rates', async () => ok(DEFAULT_PAYMENT_RATES));
};
