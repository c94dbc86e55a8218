import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { DEFAULT_PAYMENT_RATES, paymentRatesSchema } from '#contract/payments';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';

// SPEC §7: the ways to pay, fetched by the client at sign-in. The payments issue makes them operator settings.
export const paymentRatesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/payments/rates',
    { schema: { tags: ['payments'], security: [{ bearer: [] }], response: { 200: okSchema(paymentRatesSchema) } } },
    async (request) => {
      requireUser(request);
      return ok(DEFAULT_PAYMENT_RATES);
    },
  );
};
