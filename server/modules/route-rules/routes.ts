import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema, routeRuleSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import type { RouteRuleService } from './service.ts';

export const routeRuleRoutes: FastifyPluginAsyncZod<{ routeRules: RouteRuleService }> = async (app, { routeRules }) => {
  app.get(
    '/api/route-rules',
    {
      schema: {
        tags: ['route-rules'],
        querystring: z.object({ path: z.string().min(1).max(2000).startsWith('/') }),
        response: { 200: okSchema(routeRuleSchema) },
      },
    },
    async (request) => ok({ redirect: await routeRules.lookup(request.query.path) }),
  );
};
