import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { MESSAGES } from '#contract/messages';

// Who may see and delete an uploaded file (ADR 016, ADR 041). Its owner and admins always see it; anyone else as a
// use that names it says (FILE_USES): everyone for avatars, service images, project attachments and blog pictures;
// the members of a chat it was sent in, the parties of a dispute or an order it belongs to; nobody else for an
// appeal's attachments or a file nothing uses yet. For whom it is not readable it does not exist. Only the owner
// deletes.

export interface FileSubject {
  ownerId: string;
  /** A use that names it shows it to everyone. */
  public: boolean;
  /** A use that names it admits this actor (a member of a chat it was sent in, a party of a dispute …). */
  reader: boolean;
}

const isOwner = (actor: Actor, file: Pick<FileSubject, 'ownerId'>) => actor !== null && actor.id === file.ownerId;

/** Who sees a file whatever names it: its owner and admins (for anyone else the uses' readers are asked). */
export const seesAnyFile = (actor: Actor, file: Pick<FileSubject, 'ownerId'>) => isOwner(actor, file) || isAdmin(actor);

const visible = (actor: Actor, file: FileSubject) => file.public || seesAnyFile(actor, file) || file.reader;

export const filePolicy = definePolicy<{ download: FileSubject; remove: FileSubject }>(MESSAGES.notFound, {
  download: (actor, file) => (visible(actor, file) ? 'allow' : 'hidden'),
  remove: (actor, file) => {
    if (isOwner(actor, file)) return 'allow';
    return visible(actor, file) ? 'forbidden' : 'hidden';
  },
});
