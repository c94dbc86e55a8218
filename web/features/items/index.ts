// A person's services and projects: the forms, the list, their states and actions, dialogs.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { StatusBadge } from './badges.tsx';
export { ConfirmDialog, Modal } from './dialog.tsx';
export { FileUploader } from './file-uploader.tsx';
export { ConfirmEmailNotice } from './form-problem.tsx';
export { projectBudget, servicePrice } from './format.ts';
export { kopecksToRubles, rublesToKopecks } from './money.ts';
export { MyItems } from './my-items.tsx';
export { ProjectForm } from './project-form.tsx';
export { ServiceForm } from './service-form.tsx';
export { isPublic, moderationActions, publicPath, type ItemKind, type ModerationAction } from './status.ts';
export { SwitchRoleButton } from './switch-role.tsx';
export { projectToValues, serviceToValues } from './values.ts';
