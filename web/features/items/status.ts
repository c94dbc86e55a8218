// States of services and projects (PRODUCT.md "Services and projects"): their Russian names, badge tones and the
// actions each state allows its owner.

export type Tone = 'default' | 'success' | 'warning' | 'danger' | 'muted';

export interface StatusInfo {
  label: string;
  tone: Tone;
}

export const SERVICE_STATUS: Record<string, StatusInfo> = {
  draft: { label: 'Черновик', tone: 'muted' },
  moderation: { label: 'На модерации', tone: 'warning' },
  active: { label: 'Активна', tone: 'success' },
  rejected: { label: 'Отклонена', tone: 'danger' },
  paused: { label: 'Приостановлена', tone: 'muted' },
  hidden: { label: 'Скрыта', tone: 'danger' },
};

export const PROJECT_STATUS: Record<string, StatusInfo> = {
  active: { label: 'Активен', tone: 'success' },
  in_progress: { label: 'В работе', tone: 'default' },
  closed: { label: 'Закрыт', tone: 'muted' },
  archived: { label: 'В архиве', tone: 'muted' },
  hidden: { label: 'Скрыт', tone: 'danger' },
};

export type ItemKind = 'service' | 'project';

export const statusInfo = (kind: ItemKind, status: string): StatusInfo =>
  (kind === 'service' ? SERVICE_STATUS : PROJECT_STATUS)[status] ?? { label: status, tone: 'muted' };

/** What the owner may do with their service in this state (the server has the last word). */
export type ServiceOwnerAction = 'edit' | 'pause' | 'resume' | 'submit' | 'delete';

export function serviceOwnerActions(status: string): ServiceOwnerAction[] {
  switch (status) {
    case 'draft':
    case 'rejected':
      return ['edit', 'submit', 'delete'];
    case 'moderation':
      return ['edit', 'delete'];
    case 'active':
      return ['edit', 'pause', 'delete'];
    case 'paused':
      return ['edit', 'resume', 'delete'];
    default:
      // Hidden by an administrator: only removal is up to the owner.
      return ['delete'];
  }
}

export type ProjectOwnerAction = 'edit' | 'delete';

export function projectOwnerActions(status: string): ProjectOwnerAction[] {
  switch (status) {
    case 'active':
      return ['edit', 'delete'];
    case 'archived':
    case 'hidden':
      return ['delete'];
    default:
      // In progress or closed: an accepted bid made an order, the project is its history now.
      return [];
  }
}

/** Public address of a listed item: /services/{category}/{id} or /projects/{category}/{id}. */
export const publicPath = (kind: ItemKind, item: { _id: string; category: string }) =>
  `/${kind === 'service' ? 'services' : 'projects'}/${item.category}/${item._id}`;

/** Whether the public page shows the item: an active service; an active, in-progress or closed project. */
export const isPublic = (kind: ItemKind, status: string) =>
  kind === 'service' ? status === 'active' : ['active', 'in_progress', 'closed'].includes(status);

/** What an administrator may decide about an item in this state (the server's transitions). */
export type ModerationAction = 'approve' | 'reject' | 'hide' | 'restore';

export function moderationActions(kind: ItemKind, status: string, pendingEdit = false): ModerationAction[] {
  if (status === 'hidden') return ['restore'];
  // A new service, or an edit of a live one waiting beside it: both are approved or rejected.
  if (kind === 'service' && (status === 'moderation' || (status === 'active' && pendingEdit))) return ['approve', 'reject', 'hide'];
  return ['hide'];
}
