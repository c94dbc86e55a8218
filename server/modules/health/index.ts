// Liveness and readiness probes.
export { healthRoutes } from './routes.ts';
export { healthModule } from './module.ts';
