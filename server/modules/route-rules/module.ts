import { defineModule } from '../../platform/module.ts';
import { ROUTE_RULES_CHANGED_JOB, RouteRuleService } from './service.ts';
import { routeRuleRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    routeRules: RouteRuleService;
  }
}

export const routeRulesModule = defineModule({
  name: 'route-rules',
  create: ({ db, services: { platform } }) => ({ routeRules: new RouteRuleService(db, platform.withTx) }),
  routes: (app, { services: { routeRules }, reads }) => app.register(routeRuleRoutes, { routeRules, reads }),
  // An operator's change reaches this instance and the others at once.
  subscribe({ services: { platform, realtime, routeRules } }) {
    platform.dispatcher.handle(ROUTE_RULES_CHANGED_JOB, async () => {
      routeRules.forget();
      realtime.toOtherInstances('routeRulesChanged');
    });
    realtime.onOtherInstances('routeRulesChanged', () => routeRules.forget());
  },
});
