import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { RouteRuleService } from './service.ts';

export const routeRuleRoutes: FastifyPluginAsync<{ routeRules: RouteRuleService; reads: ReadHandlers }> = async (app, { routeRules, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('routeRules.get', async ({ query }) => ok({ redirect: await routeRules.lookup(query.path) }));
};
