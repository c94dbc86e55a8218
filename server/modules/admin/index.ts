// The admin area's people, settings, overview and audit log (the catalogue's moderation lives with services and
// projects, the route rules with route-rules).
export { AdminUserService } from './users-service.ts';
export { adminUserRoutes } from './users-routes.ts';
export { adminSettingsRoutes } from './settings-routes.ts';
export { OverviewService } from './overview-service.ts';
export { adminOverviewRoutes } from './overview-routes.ts';
export { adminModule } from './module.ts';
