import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { CHAT_MESSAGES } from '#contract/chat';

// Who may do what in a chat (ADR 016): only its members read it, write to it, mark it seen or delete it for
// themselves. An unknown chat is a 404; an existing chat of which the caller is not a member is a 403 with the
// reason (the id of a chat is no secret worth a lie, and the client can tell "gone" from "not yours"). Admins
// read any chat through the admin area (admin.chats.messages), not as members.

/** A chat as looked up for one person: `member` is their membership, null when they have none. */
export interface ChatSubject {
  member: string | null;
}

export const chatPolicy = definePolicy<{ takePart: ChatSubject }>(CHAT_MESSAGES.chatNotFound, {
  takePart: (actor, { member }) => (actor !== null && member === actor.id ? 'allow' : { forbidden: CHAT_MESSAGES.notMember }),
});

/**
 * A message as looked up for one person: their membership of its chat (null when they have none) and whether they
 * see it (a message from before their deletion of the chat is hidden from them).
 */
export interface MessageSubject {
  message: { senderId: string };
  member: string | null;
  visible: boolean;
}

// Marking seen: a member marks what others wrote; a message they do not see is one they do not know of (404).
export const messagePolicy = definePolicy<{ markSeen: MessageSubject }>(CHAT_MESSAGES.messageNotFound, {
  markSeen: (actor, { message, member, visible }) => {
    if (actor === null || member !== actor.id) return { forbidden: CHAT_MESSAGES.notMember };
    if (!visible) return 'hidden';
    return message.senderId === actor.id ? { forbidden: CHAT_MESSAGES.ownMessage } : 'allow';
  },
});

/** The person a first message goes to (a direct chat), as found by their id. */
export interface RecipientSubject {
  recipient: { blockedAt: Date | null };
}

// Anyone may write to a person directly, unless that person is blocked; an unknown person is a 404.
export const recipientPolicy = definePolicy<{ write: RecipientSubject }>(CHAT_MESSAGES.recipientNotFound, {
  write: (_actor, { recipient }) => (recipient.blockedAt ? { forbidden: CHAT_MESSAGES.recipientBlocked } : 'allow'),
});

/** Before an order exists (direct chats) contacts are masked; the administration writes as it must. */
export const writesContactsUnmasked = (actor: Actor): boolean => isAdmin(actor);

/** A file may be attached by the person who uploaded it only (a missing file is refused alike). */
export const mayAttach = (userId: string, file: { ownerId: string } | undefined): boolean => file?.ownerId === userId;
