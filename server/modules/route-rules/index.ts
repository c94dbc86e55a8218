// Per-path rules the pages read (noindex, redirects).
export { RouteRuleService } from './service.ts';
export { routeRuleRoutes } from './routes.ts';
