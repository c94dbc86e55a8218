import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { MESSAGES } from '#contract/messages';

// Who may see and delete an uploaded file (ADR 016). Avatars, service images and project attachments are
// public. A file sent in a chat is private to the chat: its owner, the members of a chat it was sent in, and
// admins (who read any chat in the admin area); for anyone else it does not exist. Only the owner deletes.

export interface FileSubject {
  ownerId: string;
  /** Sent in a chat: private. */
  inChat: boolean;
  /** The actor is a member of a chat it was sent in. */
  member: boolean;
}

const isOwner = (actor: Actor, file: FileSubject) => actor !== null && actor.id === file.ownerId;
const visible = (actor: Actor, file: FileSubject) => !file.inChat || isOwner(actor, file) || isAdmin(actor) || file.member;

export const filePolicy = definePolicy<{ download: FileSubject; remove: FileSubject }>(MESSAGES.notFound, {
  download: (actor, file) => (visible(actor, file) ? 'allow' : 'hidden'),
  remove: (actor, file) => {
    if (isOwner(actor, file)) return 'allow';
    return visible(actor, file) ? 'forbidden' : 'hidden';
  },
});
