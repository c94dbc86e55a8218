import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { RouteRuleService } from './service.ts';

export const routeRuleRoutes: FastifyPluginAsync<{ routeRules: RouteRuleService; reads: ReadHandlers }> = async (app, { routeRules, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('routeRules.get', async ({ query }) => {
    const rule = await routeRules.lookup(query.path);
    return ok({ redirect: rule && 'redirect' in rule ? rule.redirect : null, block: rule !== null && 'block' in rule });
  });

  // The admin's editing (ADR 036): every change audited in its transaction and announced to every instance.
  on('admin.routeRules.list', async ({ query }) => {
    const { rows, next } = await routeRules.list(query);
    return { ...ok(rows), next };
  });
  on('admin.routeRules.create', async ({ body, user }) => ok(await routeRules.save(user, body)));
  on('admin.routeRules.update', async ({ params, body, user }) => ok(await routeRules.save(user, body, params.id)));
  on('admin.routeRules.remove', async ({ params, user }) => {
    await routeRules.remove(user, params.id);
    return ok({ _id: params.id });
  });
};
