// Personal data (ADR 052): the operator's texts rendered as text, the gate that asks for consent to a new version,
// the export and the deletion request on /profile/settings.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { documentBlocks, type DocumentBlock } from './document-text.ts';
export { DocumentText, PrivacyDocumentView } from './document-view.tsx';
export { ConsentGate } from './lazy-parts.ts';
export { ConsentsTable, DeletionsTable, PublishDocumentForm } from './admin-privacy.tsx';
export { PersonalDataCard } from './personal-data-card.tsx';
