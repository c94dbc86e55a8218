import { definePolicy } from '../../platform/policy.ts';
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
