// Appeals to the administration: complaints, objections to decisions, questions; the admins' queue (ADR 035).
export { AppealService, MY_APPEALS_PATH, type AppealServiceDeps } from './service.ts';
export { appealRoutes } from './routes.ts';
export { appealPolicy } from './policy.ts';
export { appealFileUses } from './file-uses.ts';
export { appealsModule } from './module.ts';
