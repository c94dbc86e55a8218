import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { OfferService } from './service.ts';

/** The offers endpoints (contract/endpoints/offers.ts). */
export const offerRoutes: FastifyPluginAsync<{ offers: OfferService; reads: ReadHandlers }> = async (
  app,
  { offers, reads },
) => {
  const { on } = endpointsOf(app, reads);
  on('offers.ofOrder', async ({ params, user }) => ok(await offers.ofOrder(user, params.id)));
  on('offers.create', async ({ params, body, user, ip }) => ok(await offers.create(user, params.id, body, ip)));
  on('offers.accept', async ({ params, user }) => ok(await offers.accept(user, params.id)));
  on('offers.change', async ({ params, body, user, ip }) => ok(await offers.change(user, params.id, body, ip)));
  on('offers.withdraw', async ({ params, user }) => ok(await offers.withdraw(user, params.id)));
};
