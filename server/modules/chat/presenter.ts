import type { chats, messages } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { presentFiles, type FileRow } from '../../platform/files.ts';
import type { Chat, ChatMember, Message } from '#contract/chat';

// Rows → SPEC §3 documents. Pure: whatever a document needs is looked up by the service and passed in.

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
/** What chats and messages show of a person (a full user row will do). */
export type ChatPerson = Pick<UserRow, 'id' | 'activeRole' | 'name' | 'surname' | 'avatar' | 'userName'>;

export function presentMember(user: ChatPerson, online: boolean): ChatMember {
  return {
    _id: user.id,
    active_role: user.activeRole,
    online_status: online,
    name: user.name,
    surname: user.surname,
    avatar: user.avatar,
    user_name: user.userName,
  };
}

export interface MessageContext {
  /** Users by id: at least the sender. */
  users: ReadonlyMap<string, ChatPerson>;
  /** Member ids of the message's chat. */
  memberIds: readonly string[];
  /** Stored files by stored path. */
  files: ReadonlyMap<string, FileRow>;
}

export function presentMessage(row: MessageRow, ctx: MessageContext): Message {
  const sender = ctx.users.get(row.senderId);
  const others = ctx.memberIds.filter((id) => id !== row.senderId);
  return {
    _id: row.id,
    chat_id: row.chatId,
    sender: sender
      ? { _id: sender.id, name: sender.name, surname: sender.surname, avatar: sender.avatar }
      : { _id: row.senderId, name: '', surname: '', avatar: null },
    message: row.message,
    files: presentFiles(row.files, ctx.files),
    seen: row.seen,
    service_id: row.serviceId,
    recipient: others.length === 1 ? others[0]! : null,
    masked: row.masked,
    kind: row.kind,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ChatContext {
  members: readonly ChatPerson[];
  online: ReadonlySet<string>;
  unseen: number;
  lastMessage: Message | null;
  /** What the orders feature tells this member about the chat's order (order chats only). */
  order?: Record<string, unknown> & { _id: string };
}

export function presentChat(chat: ChatRow, ctx: ChatContext): Chat {
  return {
    _id: chat.id,
    kind: chat.kind,
    members: ctx.members.map((m) => presentMember(m, ctx.online.has(m.id))),
    unseen_messages: ctx.unseen,
    last_message: ctx.lastMessage,
    service_id: chat.serviceId,
    ...(chat.kind === 'order' && chat.orderId ? { order: ctx.order ?? { _id: chat.orderId } } : {}),
    last_message_at: chat.lastMessageAt.toISOString(),
  };
}
