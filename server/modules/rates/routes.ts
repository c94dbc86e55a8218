import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema, ratesSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import type { RatesService } from './service.ts';

export const ratesRoutes: FastifyPluginAsyncZod<{ rates: RatesService }> = async (app, { rates }) => {
  app.get('/api/rates', { schema: { tags: ['rates'], response: { 200: okSchema(ratesSchema) } } }, async () =>
    ok(await rates.get()),
  );
};
