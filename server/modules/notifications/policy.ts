import type { NotificationRow } from './schema.ts';
import { definePolicy } from '../../platform/policy.ts';
import { NOTIFICATION_MESSAGES } from '#contract/notifications';

// Who may do what with notifications (ADR 016, ADR 030): a notification is its person's alone; to anyone else,
// admins included, it does not exist (404).
export const notificationPolicy = definePolicy<{ read: Pick<NotificationRow, 'userId'> }>(
  NOTIFICATION_MESSAGES.notFound,
  {
    read: (actor, row) => (actor !== null && actor.id === row.userId ? 'allow' : 'hidden'),
  },
);
