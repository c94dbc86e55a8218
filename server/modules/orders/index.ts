// Orders: the service page's and an accepted bid's order, its lifecycle, its workspace chat (ADR 025).
export { OrderService, type OrderServiceDeps } from './service.ts';
export { orderRoutes } from './routes.ts';
export type { OpenOrderInput } from './open.ts';
