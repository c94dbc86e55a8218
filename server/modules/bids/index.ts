// Bids on projects (ADR 025).
export { BidService, BID_ORDER_REVISIONS, type BidServiceDeps } from './service.ts';
export { bidRoutes } from './routes.ts';
export { bidPolicy } from './policy.ts';
export { bidsModule } from './module.ts';
export { bidsPlacedBy, eraseBidsOf } from './personal-data.ts';
