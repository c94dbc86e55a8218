// Disputes: opened by a party of a paid order, cancelled by the opener, resolved by an admin (issue 14, ADR 034).
export { DisputeService, DISPUTE_ANNOUNCE_JOB, LOST_BELOW_PERCENT, type DisputeServiceDeps } from './service.ts';
export { disputeRoutes } from './routes.ts';
export { disputePolicy } from './policy.ts';
export { disputeFileUses } from './file-uses.ts';
export { disputesModule } from './module.ts';
