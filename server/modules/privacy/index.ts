// Personal data under 152-ФЗ (ADR 052): the operator's versioned texts, consents (written in the registration's
// transaction), the person's export and the deletion of their account.
export { PrivacyService } from './service.ts';
export { privacyRoutes } from './routes.ts';
export { recordConsent, currentDocument, type ConsentEvidence } from './documents.ts';
export { privacyModule } from './module.ts';
