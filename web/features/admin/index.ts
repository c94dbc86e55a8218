// The administration pages' labels, the admin home, the settings form, route rules and the audit log (ADR 036).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ROLE_LABELS, roleList } from './labels.ts';
export { OverviewView } from './overview.tsx';
export { SettingsForm } from './settings-form.tsx';
export { RouteRuleForm, RouteRulesTable, RULE_KIND_LABELS } from './route-rules.tsx';
export { AuditTable, OBJECT_TYPE_LABELS } from './audit.tsx';
