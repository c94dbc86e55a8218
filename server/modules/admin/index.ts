// The admin area's people and settings (the catalogue's moderation lives with services and projects).
export { AdminUserService } from './users-service.ts';
export { adminUserRoutes } from './users-routes.ts';
export { adminSettingsRoutes } from './settings-routes.ts';
