// Disputes (issue 14): the feature's public face; other folders import it only from here (ADR 017).
export { MyDisputes } from './my-disputes.tsx';
export { DisputeForm } from './dispute-form.tsx';
export { AdminDisputes } from './admin-disputes.tsx';
