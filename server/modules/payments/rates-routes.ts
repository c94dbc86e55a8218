import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { SettingsService } from '../../platform/settings.ts';

// SPEC §7: the ways to pay, fetched by the client at sign-in: the operator's settings ('payments.methods').
export const paymentRatesRoutes: FastifyPluginAsync<{ reads: ReadHandlers; settings: SettingsService }> = async (app, { reads, settings }) => {
  const { on } = endpointsOf(app, reads);
  on('payments.rates', async () => ok(await settings.get('payments.methods')));
};
