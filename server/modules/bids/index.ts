// Bids on projects (ADR 025).
export { BidService, type BidServiceDeps } from './service.ts';
export { bidRoutes } from './routes.ts';
