import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../../../platform/endpoints.ts';
import type { SandboxDesk } from './desk.ts';

/** The sandbox's confirmation page and its buttons (contract/endpoints/payments.ts): anyone with the link. */
export const sandboxRoutes: FastifyPluginAsync<{ sandbox: SandboxDesk; reads: ReadHandlers }> = async (app, { sandbox, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('payments.sandbox', async ({ params }) => ok(await sandbox.page(params.paymentId)));
  on('payments.sandboxDecide', async ({ params }) => ok(await sandbox.decide(params.paymentId, params.decision)));
};
