// Per-path rules the pages read (redirects and blocks), and their editing by admins (ADR 036).
export { RouteRuleService, ROUTE_RULES_CHANGED_JOB, type RouteRuleMatch } from './service.ts';
export { routeRuleRoutes } from './routes.ts';
export { routeRulesModule } from './module.ts';
