import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';

export const healthRoutes: FastifyPluginAsync<{ database: Database; reads: ReadHandlers }> = async (app, { database, reads }) => {
  const { on, raw } = endpointsOf(app, reads);
  on('health.live', async () => ok({ alive: true as const }));
  raw('health.ready', async (_input, { reply }) => {
    try {
      await database.ping();
      return ok({ ready: true as const, database: database.kind });
    } catch {
      return reply.status(503).send({ status: 503, message: 'База данных недоступна' });
    }
  });
};
