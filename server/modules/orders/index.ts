// Orders: the service page's and an accepted bid's order, its lifecycle, its workspace chat (ADR 025).
export { OrderService, AUTO_ACCEPT_JOB, type OrderServiceDeps } from './service.ts';
export { orderRoutes } from './routes.ts';
export { orderPolicy, actionsFor, cancelRefusal } from './policy.ts';
export type { OpenOrderInput } from './open.ts';
