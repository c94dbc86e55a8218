// A person's services and projects: the forms, the list, their states and actions.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { StatusBadge } from './badges.tsx';
export { ConfirmEmailNotice } from './form-problem.tsx';
export { projectBudget, servicePrice } from './format.ts';
export { MyItems } from './my-items.tsx';
export { ProjectForm } from './project-form.tsx';
export { ServiceForm } from './service-form.tsx';
export { isPublic, moderationActions, publicPath, type ItemKind, type ModerationAction } from './status.ts';
export { SwitchRoleButton } from './switch-role.tsx';
export { emptyProjectValues, projectToValues, serviceToValues } from './values.ts';
