// The administration pages' labels, the admin home, the settings form, route rules and the audit log (ADR 036).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ROLE_LABELS, roleList } from './labels.ts';
export { accessText, adminToggle, pageLink, pagesOf, USER_STATE_OPTIONS, USERS_PAGE_SIZE, userState, usersQuery } from './users-list.ts';
export { firstError, groupsText, parseGroups, suggestionsFilters, suggestionsTab, synonymsProblem } from './synonyms.ts';
export { OverviewView } from './overview.tsx';
export { SettingsForm } from './settings-form.tsx';
export { RouteRuleForm, RouteRulesTable } from './route-rules.tsx';
export { RULE_KIND_LABELS } from './route-rule-draft.ts';
export { AuditTable } from './audit.tsx';
export { adminOption, auditFilters, auditNextLink, auditQuery, OBJECT_TYPE_LABELS } from './audit-format.ts';
