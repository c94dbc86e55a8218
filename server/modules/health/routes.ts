import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { ok } from '../../lib/http.ts';

export const healthRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  app.get('/api/health', { schema: { tags: ['health'] } }, async () => ok({ alive: true }));
  app.get('/api/ready', { schema: { tags: ['health'] } }, async (_request, reply) => {
    try {
      await database.ping();
      return ok({ ready: true, database: database.kind });
    } catch {
      return reply.status(503).send({ status: 503, message: 'База данных недоступна' });
    }
  });
};
