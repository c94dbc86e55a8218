// Liveness and readiness probes.
export { healthRoutes } from './routes.ts';
