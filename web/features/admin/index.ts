// Labels of the administration pages (roles).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ROLE_LABELS, roleList } from './labels.ts';
